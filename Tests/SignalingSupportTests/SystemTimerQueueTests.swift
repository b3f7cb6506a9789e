import Dispatch
@testable import SignalingSupport
import TestSupport
import Testing

/// The heap behind `SystemClock` (docs/architecture.md#time): cancelled timers must not pile up until their deadlines.
@Suite struct SystemTimerQueueTests {
    /// Uptime nanoseconds `delay` from now.
    static func deadline(in delay: Duration) -> UInt64 {
        DispatchTime.now().uptimeNanoseconds + UInt64(delay.components.seconds) * 1_000_000_000
            + UInt64(delay.components.attoseconds / 1_000_000_000)
    }

    @Test func aHundredThousandCancelledTimersLeaveTheHeap() {
        // Given a timer queue of its own (the process-wide one is shared with other tests)
        let queue = SystemTimerQueue()

        // When 100,000 calls each schedule a 5 s timeout and complete at once, cancelling it
        for _ in 0..<100_000 {
            let timer = DispatchTimerHandle { Issue.record("a cancelled timer fired") }
            queue.schedule(timer, at: Self.deadline(in: .seconds(5)))
            timer.cancel()
        }

        // Then the heap holds no more than the compaction floor, not one entry per call
        #expect(queue.count <= SystemTimerQueue.minimumCompactionMark)
    }

    @Test func theHeapStaysWithinTwiceTheTimersStillPending() {
        // Given 2,000 calls in flight, each with a pending timeout
        let queue = SystemTimerQueue()
        let inFlight = (0..<2_000).map { _ in DispatchTimerHandle {} }
        for timer in inFlight { queue.schedule(timer, at: Self.deadline(in: .seconds(60))) }

        // When 100,000 more calls come and go meanwhile
        for _ in 0..<100_000 {
            let timer = DispatchTimerHandle {}
            queue.schedule(timer, at: Self.deadline(in: .seconds(5)))
            timer.cancel()
        }

        // Then the heap keeps every pending timer and at most as many dead ones
        #expect(queue.count >= inFlight.count)
        #expect(queue.count <= 2 * inFlight.count)
        inFlight.forEach { $0.cancel() }
    }

    @Test func pendingTimersFireInDeadlineOrderAcrossCompactionsAndCancelledOnesNever() async throws {
        // Given three pending timers among thousands of cancelled ones, enough to compact the heap several times
        let queue = SystemTimerQueue()
        let fired = LockedValue<[String]>([])
        let strays = LockedValue(0)
        // (deadlines from one base, after the scheduling below is over even under a sanitizer: the order is theirs)
        let base = Self.deadline(in: .milliseconds(200) * deadlineScale)
        for (name, delay) in [("c", 100), ("a", 0), ("b", 50)] {
            queue.schedule(DispatchTimerHandle { fired.withLock { $0.append(name) } },
                           at: base + UInt64(delay) * 1_000_000)
            for _ in 0..<3_000 {
                let timer = DispatchTimerHandle { strays.withLock { $0 += 1 } }
                queue.schedule(timer, at: Self.deadline(in: .milliseconds(10)))
                timer.cancel()
            }
        }

        // When their deadlines pass
        try await waitUntil("the three pending timers fired") { fired.withLock { $0.count } == 3 }

        // Then they ran once each in deadline order, no cancelled timer ran, and the heap is empty
        #expect(fired.withLock { $0 } == ["a", "b", "c"])
        #expect(strays.withLock { $0 } == 0)
        #expect(queue.count == 0)
    }
}
