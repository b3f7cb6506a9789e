import SignalingSupport

/// What a loss-reporting subscriber of a ``Broadcast`` receives: the events, and where some were lost.
package enum BroadcastDelivery<Element: Sendable>: Sendable {
    /// The next event.
    case event(Element)
    /// `count` events (at least 1) were published here that did not fit in the subscriber's buffer: they come
    /// after the events received before this and before the ones received after it.
    case lost(Int)
}

/// A subscriber of a ``Broadcast`` that falls behind without ending
/// (``Broadcast/subscribeReportingLoss(bufferLimit:)``): while its buffer is full, events are skipped and counted.
/// One ``BroadcastDelivery/lost(_:)`` with the count follows the last event before the gap: as soon as the consumer
/// took every buffered event, or before the first event that fits again, or before the sequence ends, whichever
/// comes first. So the consumer either gets every event, or is told of each gap exactly once, in place, without
/// waiting for more traffic. The delegate faces (``DelegateFeeder``) read their client's events this way.
package struct LossReportingSubscription<Event: Sendable>: AsyncSequence, Sendable {
    // Named `Event`, not `Element`: a generic parameter named like AsyncSequence's `Element` would bind that
    // associated type to the event itself, not to its delivery (the whole-module release build rejected that).
    package typealias Element = BroadcastDelivery<Event>

    /// The broadcast's end of the subscription: it counts what the consumer has not taken yet.
    final class Feed: Sendable {
        private struct Tally {
            /// Events yielded and not yet taken by the iterator.
            var buffered = 0
            /// Events skipped since the last one yielded.
            var lost = 0
        }
        private let tally = LockedValue(Tally())
        let limit: Int
        let continuation: AsyncStream<BroadcastDelivery<Event>>.Continuation

        init(limit: Int, continuation: AsyncStream<BroadcastDelivery<Event>>.Continuation) {
            self.limit = limit
            self.continuation = continuation
        }

        /// Buffers `element`, or counts it as lost when `limit` events wait already. Called with the broadcast's
        /// lock held, so elements arrive in publish order. Yields happen under the tally's lock, so that a loss
        /// report lands exactly where the loss was, whichever of `offer` and `taken` makes it.
        func offer(_ element: Event) {
            tally.withLock { t in
                guard t.buffered < limit else {
                    t.lost += 1
                    return
                }
                reportLoss(&t)
                t.buffered += 1
                continuation.yield(.event(element))
            }
        }

        /// The iterator took one event out of the buffer. Once it took them all, a loss is reported at once rather
        /// than with the next event, which may be long in coming: a delegate that caught up learns of its gap now.
        func taken() {
            tally.withLock { t in
                t.buffered -= 1
                if t.buffered == 0 { reportLoss(&t) }
            }
        }

        /// Reports a loss not reported yet, then ends the sequence.
        func finish() {
            tally.withLock { t in reportLoss(&t) }
            continuation.finish()
        }

        private func reportLoss(_ t: inout Tally) {
            guard t.lost > 0 else { return }
            continuation.yield(.lost(t.lost))
            t.lost = 0
        }
    }

    let feed: Feed
    private let stream: AsyncStream<BroadcastDelivery<Event>>

    init(limit: Int) {
        // Unbounded, because the tally bounds it: at most `limit` events, each preceded by at most one loss report.
        let (stream, continuation) = AsyncStream<BroadcastDelivery<Event>>.makeStream()
        self.stream = stream
        feed = Feed(limit: limit, continuation: continuation)
    }

    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), feed: feed)
    }

    /// Takes deliveries from the stream and tells the feed, so that the room they leave is used again.
    package struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<BroadcastDelivery<Event>>.AsyncIterator
        let feed: Feed

        package mutating func next() async -> BroadcastDelivery<Event>? {
            let delivery = await base.next()
            if case .event? = delivery { feed.taken() }
            return delivery
        }
    }
}
