import Foundation
import JSONRPC
import SignalingSupport
import TestSupport
import Testing

/// The client's callback queue (docs/architecture.md#callbacks): callbacks run one at a time, in order, outside every
/// lock, and work a callback causes runs after it rather than inside it.
@Suite struct CallbackQueueTests {
    @Test func workQueuedByACallbackRunsAfterItNotInsideIt() {
        // Given an idle queue
        let queue = CallbackQueue()
        let log = LockedValue<[String]>([])

        // When a callback queues more work
        queue.run {
            log.withLock { $0.append("outer starts") }
            queue.run { log.withLock { $0.append("inner") } }
            log.withLock { $0.append("outer ends") }
        }

        // Then that work ran once the callback returned, before run returned
        #expect(log.withLock { $0 } == ["outer starts", "outer ends", "inner"])
    }

    @Test func workFromOtherThreadsWaitsForTheRunningCallbackAndKeepsItsOrder() async throws {
        // Given a queue whose callback is busy on another thread
        let queue = CallbackQueue()
        let log = LockedValue<[String]>([])
        let gate = BlockingGate()
        Thread.detachNewThread {
            queue.run {
                gate.block()
                log.withLock { $0.append("first") }
            }
        }
        try await waitUntil("the first callback to be busy") { gate.isBlocking }

        // When this thread queues a callback, and a task performs another and waits for it
        queue.run { log.withLock { $0.append("second") } }
        let ranBeforeTheFirstEnded = log.withLock { $0 }
        let third = Task { await queue.perform { log.withLock { $0.append("third") } } }
        gate.open()
        try await withDeadline(.seconds(10), "the third callback") { await third.value }

        // Then nothing ran beside the busy callback, and everything ran in order, by then
        #expect(ranBeforeTheFirstEnded.isEmpty)
        #expect(log.withLock { $0 } == ["first", "second", "third"])
    }
}
