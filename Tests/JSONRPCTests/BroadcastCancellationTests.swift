import Foundation
import JSONRPC
import SignalingSupport
import TestSupport
import Testing

/// A subscriber's consumer that stops (its task cancelled) while events are being published to it. Cancelling a
/// task holds the runtime's lock of that task while the stream's termination handler runs, and a yield takes the
/// same lock to resume the consumer: a broadcast whose termination handler took the lock it yields under hung both
/// threads (room-join hung on SIGINT this way, about once in 50 runs).
@Suite struct BroadcastCancellationTests {
    @Test func consumersCancelledWhileEventsArePublishedNeverHangThePublisher() async throws {
        // Given a thread that publishes without pause
        let broadcast = Broadcast<Int>()
        let running = LockedValue(true)
        let published = LockedValue(0)
        Thread.detachNewThread {
            var next = 0
            while running.withLock({ $0 }) {
                broadcast.publish(next)
                next += 1
                published.withLock { $0 = next }
            }
        }
        defer { running.withLock { $0 = false } }

        // When another thread, 1,000 times, starts a consumer, lets it receive, and cancels it
        let rounds = 1000
        let cancelled = LockedValue(0)
        Thread.detachNewThread {
            for _ in 0..<rounds {
                let events = broadcast.subscribe(bufferLimit: 1 << 20)
                let received = LockedValue(false)
                let consumer = Task {
                    for try await _ in events { received.withLock { $0 = true } }
                }
                while !received.withLock({ $0 }) { sched_yield() }
                consumer.cancel()
                cancelled.withLock { $0 += 1 }
            }
        }

        // Then every cancel returns, the publisher keeps going, and no stopped subscriber stays registered
        try await waitUntil("\(rounds) consumers cancelled while events are published", timeout: .seconds(60)) {
            cancelled.withLock { $0 } == rounds
        }
        let before = published.withLock { $0 }
        try await waitUntil("the publisher to go on") { published.withLock { $0 } > before }
        try await waitUntil("every stopped subscriber to be forgotten") { broadcast.subscriberCount == 0 }
    }
}
