import SignalingSupport

/// A subscriber's buffer filled up: its sequence ends with this error rather than silently losing events
/// (DESIGN §2).
public struct BroadcastOverflow: Error, Sendable, Hashable, CustomStringConvertible {
    /// The buffer size that was exceeded.
    public var limit: Int
    public var description: String {
        "this subscriber fell more than \(limit) events behind and was ended; subscribe again and consume faster"
    }
}

/// A multicast event source (DESIGN §2): every ``subscribe(bufferLimit:)`` returns a new sequence with its own
/// bounded buffer. Subscribers see events in ``publish(_:)`` order. A subscriber that falls `bufferLimit`
/// events behind is ended with ``BroadcastOverflow``. Used for notifications, connection state and, later,
/// room events.
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
    private struct State {
        var subscribers: [UInt64: (continuation: Continuation, limit: Int)] = [:]
        var nextKey: UInt64 = 0
        var latest: Element?
        var finished: (any Error)??
    }
    private let state = LockedValue(State())
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

    /// A new subscriber, registered now: it sees every event published from this moment on.
    public func subscribe(bufferLimit: Int? = nil) -> Subscription {
        let limit = max(1, bufferLimit ?? defaultLimit)
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream(
            bufferingPolicy: .bufferingOldest(limit))
        let key = state.withLock { s -> UInt64? in
            if replaysLatest, let latest = s.latest { continuation.yield(latest) }
            if let finished = s.finished {
                continuation.finish(throwing: finished)
                return nil
            }
            let key = s.nextKey
            s.nextKey += 1
            s.subscribers[key] = (continuation, limit)
            return key
        }
        if let key {
            continuation.onTermination = { [weak self] _ in
                self?.state.withLock { _ = $0.subscribers.removeValue(forKey: key) }
            }
        }
        return Subscription(stream: stream)
    }

    /// Delivers `element` to every current subscriber. Yields happen under the lock so that concurrent
    /// publishers cannot interleave differently for different subscribers.
    public func publish(_ element: Element) {
        let overflowed = state.withLock { s -> [(Continuation, Int)] in
            guard s.finished == nil else { return [] }
            if replaysLatest { s.latest = element }
            var overflowed: [(Continuation, Int)] = []
            for (key, subscriber) in s.subscribers {
                if case .dropped = subscriber.continuation.yield(element) {
                    s.subscribers[key] = nil
                    overflowed.append(subscriber)
                }
            }
            return overflowed
        }
        // Outside the lock: finishing runs onTermination, which takes the lock.
        for (continuation, limit) in overflowed { continuation.finish(throwing: BroadcastOverflow(limit: limit)) }
    }

    /// Ends every subscriber's sequence (with `error`, if given); later subscribers end at once.
    public func finish(throwing error: (any Error)? = nil) {
        let subscribers = state.withLock { s -> [Continuation] in
            guard s.finished == nil else { return [] }
            s.finished = .some(error)
            defer { s.subscribers = [:] }
            return s.subscribers.values.map(\.continuation)
        }
        for continuation in subscribers { continuation.finish(throwing: error) }
    }

    /// The number of live subscribers.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }
}
