import SignalingSupport

/// A subscriber's buffer filled up: its sequence ends with this error rather than silently losing events
/// (docs/architecture.md#event-streams).
///
/// The subscriber got every event up to the moment it fell behind (what its buffer held is delivered before this
/// error), then this error, exactly once; every later event is lost to it. To go on, subscribe again and read the
/// state the events describe (a client's state is updated before each event is published, so it is current).
public struct BroadcastOverflow: Error, Sendable, Hashable, CustomStringConvertible {
    /// The buffer size that was exceeded.
    public var limit: Int

    /// Creates the error of a subscriber whose buffer of `limit` events overflowed.
    public init(limit: Int) { self.limit = limit }

    public var description: String {
        "this subscriber fell more than \(limit) events behind and was ended; subscribe again, read the current "
            + "state, and consume faster"
    }
}

/// A multicast event source (docs/architecture.md#event-streams): every ``subscribe(bufferLimit:)`` returns a new
/// sequence with its own bounded buffer. Subscribers see events in ``publish(_:)`` order. A subscriber either gets
/// every event, or, when it falls more than `bufferLimit` events behind, gets the events it buffered and then
/// ``BroadcastOverflow``, once, ending its sequence. Used for notifications, connection state, room, tree and
/// shared-object events.
///
/// The delegate faces subscribe differently (`subscribeReportingLoss(bufferLimit:)`, in the package): a delegate
/// that falls behind is told how many events it lost and goes on with the later ones.
public final class Broadcast<Element: Sendable>: Sendable {
    /// One subscriber's view: an `AsyncSequence` of the events published after it subscribed
    /// (plus the latest one, for a replaying broadcast).
    public struct Subscription: AsyncSequence, Sendable {
        let stream: AsyncThrowingStream<Element, any Error>
        public func makeAsyncIterator() -> AsyncThrowingStream<Element, any Error>.AsyncIterator {
            stream.makeAsyncIterator()
        }
    }

    private typealias Continuation = AsyncThrowingStream<Element, any Error>.Continuation
    private enum Subscriber {
        /// A ``Subscription``: ended by ``BroadcastOverflow`` when its buffer is full.
        case ending(Continuation, limit: Int)
        /// A delegate feed: skips what does not fit and reports it.
        case reporting(LossReportingSubscription<Element>.Feed)
    }
    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextKey: UInt64 = 0
        var latest: Element?
        var finished: (any Error)??
    }
    private let state = LockedValue(State())
    /// Keys of subscribers whose consumers stopped, removed from `state` by the next call that takes its lock.
    /// Its own lock, never held around a yield: a consumer stops inside its task's cancellation, which holds the
    /// runtime's lock of that task, while ``publish(_:)`` yields under `state`'s lock and a yield takes the same
    /// runtime lock to resume the consumer. Taking `state`'s lock in `onTermination` deadlocked those two.
    private let stopped = LockedValue([UInt64]())
    private let defaultLimit: Int
    private let replaysLatest: Bool

    /// Creates a broadcast.
    /// - Parameters:
    ///   - bufferLimit: the default per-subscriber buffer.
    ///   - replaysLatest: whether a new subscriber first receives the latest event (for state values).
    public init(bufferLimit: Int = 1024, replaysLatest: Bool = false) {
        defaultLimit = max(1, bufferLimit)
        self.replaysLatest = replaysLatest
    }

    /// A new subscriber, registered now: it sees every event published from this moment on, or, if it falls more
    /// than `bufferLimit` (default: the broadcast's) events behind, the ones it buffered and then
    /// ``BroadcastOverflow``.
    public func subscribe(bufferLimit: Int? = nil) -> Subscription {
        let limit = max(1, bufferLimit ?? defaultLimit)
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream(
            bufferingPolicy: .bufferingOldest(limit))
        let key = register(.ending(continuation, limit: limit)) { latest in continuation.yield(latest) }
        if let key {
            continuation.onTermination = { [weak self] _ in self?.unregister(key) }
        }
        return Subscription(stream: stream)
    }

    /// A new subscriber that never ends for falling behind: what does not fit in its `bufferLimit` is skipped, and
    /// right after the events it did buffer it receives how many it missed (the delegate faces,
    /// docs/architecture.md#event-streams; see ``LossReportingSubscription``). Its sequence ends when the broadcast
    /// finishes (after a last loss report, if it was behind) or when its consumer stops.
    package func subscribeReportingLoss(bufferLimit: Int? = nil) -> LossReportingSubscription<Element> {
        let subscription = LossReportingSubscription<Element>(limit: max(1, bufferLimit ?? defaultLimit))
        let feed = subscription.feed
        if let key = register(.reporting(feed), replay: { latest in feed.offer(latest) }) {
            feed.continuation.onTermination = { [weak self] _ in self?.unregister(key) }
        }
        return subscription
    }

    /// Adds `subscriber` (after replaying the latest event to it); `nil` when the broadcast is finished, in which
    /// case the subscriber is finished too.
    private func register(_ subscriber: Subscriber, replay: (Element) -> Void) -> UInt64? {
        state.withLock { s -> UInt64? in
            removeStopped(&s)
            if replaysLatest, let latest = s.latest { replay(latest) }
            if let finished = s.finished {
                Self.end(subscriber, throwing: finished)
                return nil
            }
            let key = s.nextKey
            s.nextKey += 1
            s.subscribers[key] = subscriber
            return key
        }
    }

    /// Called from `onTermination`: only notes the key (see `stopped`).
    private func unregister(_ key: UInt64) {
        stopped.withLock { $0.append(key) }
    }

    /// Forgets the subscribers whose consumers stopped; under `state`'s lock.
    private func removeStopped(_ s: inout State) {
        let keys = stopped.withLock { keys -> [UInt64] in
            guard !keys.isEmpty else { return [] }
            defer { keys = [] }
            return keys
        }
        for key in keys { s.subscribers[key] = nil }
    }

    /// Delivers `element` to every current subscriber. Yields happen under the lock so that concurrent
    /// publishers cannot interleave differently for different subscribers. (Yielding only buffers the element and
    /// wakes the consumer's task: no subscriber code runs here.)
    public func publish(_ element: Element) {
        let overflowed = state.withLock { s -> [(Continuation, Int)] in
            guard s.finished == nil else { return [] }
            removeStopped(&s)
            if replaysLatest { s.latest = element }
            var overflowed: [(Continuation, Int)] = []
            for (key, subscriber) in s.subscribers {
                switch subscriber {
                case .ending(let continuation, let limit):
                    if case .dropped = continuation.yield(element) {
                        s.subscribers[key] = nil
                        overflowed.append((continuation, limit))
                    }
                case .reporting(let feed):
                    feed.offer(element)
                }
            }
            return overflowed
        }
        // Outside the lock: finishing runs onTermination.
        for (continuation, limit) in overflowed { continuation.finish(throwing: BroadcastOverflow(limit: limit)) }
    }

    /// Ends every subscriber's sequence (with `error`, if given); later subscribers end at once.
    public func finish(throwing error: (any Error)? = nil) {
        let subscribers = state.withLock { s -> [Subscriber] in
            guard s.finished == nil else { return [] }
            s.finished = .some(error)
            defer { s.subscribers = [:] }
            return Array(s.subscribers.values)
        }
        for subscriber in subscribers { Self.end(subscriber, throwing: error) }
    }

    private static func end(_ subscriber: Subscriber, throwing error: (any Error)?) {
        switch subscriber {
        case .ending(let continuation, _): continuation.finish(throwing: error)
        case .reporting(let feed): feed.finish()
        }
    }

    /// The number of live subscribers.
    public var subscriberCount: Int {
        state.withLock { s in
            removeStopped(&s)
            return s.subscribers.count
        }
    }
}
