import Foundation
import RoomClusterCore
import SignalingSupport
#if canImport(Glibc)
import Glibc
#endif

/// A Redis pub/sub subscription on a connection and a thread of its own, delivered as an `AsyncStream` in the
/// order Redis published (the order each publisher sent, per channel).
///
/// It says when it is subscribed (``Event/subscribed``) and when it lost Redis (``Event/lost(_:)``): messages
/// published in between are not delivered, and the reader must resynchronize from the keys. It reconnects by
/// itself every `retryDelay`. A silent Redis (stopped, or cut off) is noticed by a `PING`, sent after
/// `pingInterval` without a word from Redis, that gets no answer within `timeout`.
///
/// It holds at most `capacity` events for its reader: a reader that falls that far behind loses what follows. The
/// subscriber then leaves Redis, says so (``Event/lost(_:)``, "events dropped: the reader fell behind") as soon as the
/// reader makes room, and subscribes again (``Event/subscribed``), so the reader resynchronizes as after any loss.
public final class RedisSubscriber: Sendable {
    /// What the subscription delivers.
    public enum Event: Sendable, Hashable {
        /// Subscribed to every channel and pattern (first, and after each reconnection).
        case subscribed
        /// A message on `channel` (for a pattern subscription, the channel it matched).
        case message(channel: String, payload: String)
        /// The connection to Redis is gone (with why); messages are lost until ``subscribed`` comes again.
        case lost(String)
    }

    /// The most events held for the reader by default.
    public static let defaultCapacity = 10_000

    /// The events, for one reader. Ends after ``stop()``.
    public let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let stopped = LockedValue(false)

    /// Subscribes to `channels` and `patterns` at `url` and keeps the subscription up until ``stop()``, holding at
    /// most `capacity` events for the reader.
    public init(url: RedisURL, channels: [String], patterns: [String] = [], timeout: Duration = .seconds(2),
                pingInterval: Duration = .seconds(1), retryDelay: Duration = .milliseconds(200),
                capacity: Int = defaultCapacity) {
        (events, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingOldest(max(1, capacity)))
        let loop = SubscriberLoop(url: url, channels: channels, patterns: patterns, timeout: timeout,
                                  pingInterval: pingInterval, retryDelay: retryDelay, capacity: capacity, continuation: continuation,
                                  stopped: stopped)
        Thread.detachNewThread { loop.run() }
    }

    deinit { stop() }

    /// Ends the subscription (within a poll interval) and the event stream.
    public func stop() { stopped.withLock { $0 = true } }
}

/// The subscriber's thread: connect, subscribe, read with `poll`, ping, reconnect.
private struct SubscriberLoop: Sendable {
    let url: RedisURL
    let channels: [String]
    let patterns: [String]
    let timeout: Duration
    let pingInterval: Duration
    let retryDelay: Duration
    let capacity: Int
    let continuation: AsyncStream<RedisSubscriber.Event>.Continuation
    let stopped: LockedValue<Bool>

    /// How often the thread looks at `stopped` while it waits.
    static let tick: Duration = .milliseconds(50)

    func run() {
        var wasSubscribed = true  // the first failure to connect is reported too
        while !stopped.withLock({ $0 }) {
            do throws(RedisError) {
                try session { wasSubscribed = true }
            } catch {
                if wasSubscribed { deliver(.lost(error.description)) }
                wasSubscribed = false
                pause(retryDelay)
            }
        }
        continuation.finish()
    }

    /// One connection's life: returns when stopped, throws when Redis is gone. `onSubscribed` runs once every
    /// subscription is confirmed.
    private func session(onSubscribed: () -> Void) throws(RedisError) {
        let context = try HiredisContext(url: url, timeout: timeout)
        if !channels.isEmpty { try context.append(["SUBSCRIBE"] + channels) }
        if !patterns.isEmpty { try context.append(["PSUBSCRIBE"] + patterns) }
        try context.flush()
        var confirmations = channels.count + patterns.count
        let sent = ContinuousClock.now
        var lastHeard = sent
        var pingSent: ContinuousClock.Instant?
        while !stopped.withLock({ $0 }) {
            while let reply = try context.bufferedReply() {
                lastHeard = .now
                pingSent = nil
                guard let parts = reply.array, let kind = parts.first?.string else { continue }
                switch kind {
                case "subscribe", "psubscribe":
                    confirmations -= 1
                    if confirmations == 0 {
                        onSubscribed()
                        deliver(.subscribed)
                    }
                case "message" where parts.count == 3:
                    try deliver(message: .message(channel: parts[1].string ?? "", payload: parts[2].string ?? ""))
                case "pmessage" where parts.count == 4:
                    try deliver(message: .message(channel: parts[2].string ?? "", payload: parts[3].string ?? ""))
                default:
                    break  // pong
                }
            }
            if let pingSent, ContinuousClock.now - pingSent > timeout {
                throw .unavailable("Redis did not answer a PING within \(timeout)")
            }
            // A connection that answers PINGs but never confirmed the subscription (its SUBSCRIBE went to a Redis
            // that was not there yet, through a proxy or a restart) delivers nothing: it is dropped, not trusted.
            if confirmations > 0, ContinuousClock.now - sent > timeout {
                throw .unavailable("Redis did not confirm the subscription within \(timeout)")
            }
            if pingSent == nil, ContinuousClock.now - lastHeard > pingInterval {
                try context.append(["PING"])
                try context.flush()
                pingSent = .now
            }
            var descriptor = pollfd(fd: context.fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(Self.tick.components.attoseconds / 1_000_000_000_000_000))
            if ready > 0 { try context.readAvailable() }
        }
    }

    /// Hands a message to the reader; when the reader holds the capacity already, the message is lost and the
    /// connection ends: the subscriber stops draining Redis into memory. (Redis bounds what it holds for a subscriber
    /// that does not read, and closes its connection beyond `client-output-buffer-limit pubsub`, 32 MB, or 8 MB for
    /// 60 s, by default: https://redis.io/docs/latest/develop/reference/clients/#output-buffer-limits. Ending it here
    /// reports the same loss sooner, and the `PING` stays meaningful.)
    private func deliver(message: RedisSubscriber.Event) throws(RedisError) {
        guard case .dropped = continuation.yield(message) else { return }
        throw .unavailable("events dropped: the reader fell behind (more than \(capacity) waiting)")
    }

    /// Hands the reader a change of state (``RedisSubscriber/Event/subscribed``, ``RedisSubscriber/Event/lost(_:)``),
    /// never dropped: while the reader holds the capacity, retried every tick until it makes room (or until stopped).
    private func deliver(_ event: RedisSubscriber.Event) {
        while case .dropped = continuation.yield(event), !stopped.withLock({ $0 }) {
            Thread.sleep(forTimeInterval: Self.tick / .seconds(1))
        }
    }

    /// Waits `duration`, or less once stopped.
    private func pause(_ duration: Duration) {
        let end = ContinuousClock.now + duration
        while ContinuousClock.now < end, !stopped.withLock({ $0 }) {
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}
