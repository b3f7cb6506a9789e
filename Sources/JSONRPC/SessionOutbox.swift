import CoreMetrics
import DequeModule
import SignalingSupport

/// The notifications on their way to one server session, in the order they were queued. Nothing here ever waits
/// for a socket: one member that stops reading never slows the others (docs/architecture.md#backpressure).
///
/// Servers built on ``JSONRPCServer`` ``enqueue(_:)`` under their own state lock, so two handlers that change the
/// state one after the other also queue their notifications in that order, and call ``flush()`` once the lock is
/// released. `flush()` hands every queued notification to the session (``ServerSession/deliver(_:)``), which
/// numbers it, hands it to its connection and keeps it until it is released (written, or acknowledged by a client
/// that acknowledges; docs/wire-protocol.md#delivery) and returns at once; by then they are in the connection's
/// queue, ahead of anything the caller sends on it next (a handler's notifications before its reply). After a
/// resume the session hands its connection what the client did not get, and the next `flush()` what waited here.
///
/// While the session has no connection, notifications wait here (``Disconnected/keep``, the Room and Tree servers)
/// or are discarded (``Disconnected/drop``: clients that re-sync on their own, like shared objects).
///
/// At most `limit` notifications wait, here and kept by the session together, counted when one is queued: one
/// more marks the outbox overflowed, drops it and everything after it, and runs `onOverflow` once (the Room server
/// ends the session and closes its socket with 4410), whether the session is disconnected or connected to a peer
/// that stopped reading or acknowledging. The session's byte bound
/// (``JSONRPCServer/Configuration/maxUnacknowledgedBytes``) overflows the outbox the same way.
///
/// With the server's metrics on (docs/operations.md#metrics), every notification queued is counted, then either
/// sent (released by its session) or dropped (refused once overflowed, discarded while disconnected, or never
/// released when its session ended), and the depth gauge follows.
package final class SessionOutbox: Sendable {
    /// What happens to a notification that cannot be sent because the session has no connection.
    package enum Disconnected: Sendable {
        /// It waits for the next ``SessionOutbox/flush()``, after the session resumes.
        case keep
        /// It is discarded.
        case drop
    }

    private struct State {
        /// Queued and not yet handed to the session, oldest first.
        var queue = Deque<String>()
        var overflowed = false
    }

    /// The session the notifications go to.
    package let session: ServerSession
    private let limit: Int
    private let whileDisconnected: Disconnected
    private let onOverflow: @Sendable (ServerSession) async -> Void
    private let state = LockedValue(State())
    /// The session's server's counters, if on.
    private let metrics: OutboxMetrics?

    /// Creates the outbox of `session`, holding at most `limit` notifications (with those its session keeps).
    package init(session: ServerSession, limit: Int, whileDisconnected: Disconnected,
                 onOverflow: @escaping @Sendable (ServerSession) async -> Void) {
        self.session = session
        self.limit = max(1, limit)
        self.whileDisconnected = whileDisconnected
        self.onOverflow = onOverflow
        metrics = session.metrics?.outbox
    }

    deinit {
        // What never reached the session is dropped (the session counts what it kept).
        guard let metrics else { return }
        let left = state.withLock { $0.queue.count }
        if left > 0 {
            metrics.depth.decrement(by: Double(left))
            metrics.dropped.increment(by: left)
        }
    }

    /// Queues a notification; synchronous, so callers can queue under their own lock.
    package func enqueue(method: String, params: JSONValue?) {
        enqueue(EncodedNotification(method: method, params: params))
    }

    /// Queues a notification encoded once for every outbox it goes to (a broadcast); synchronous and cheap: it
    /// only appends (``flush()`` hands it to the session). One past the limit overflows the outbox.
    package func enqueue(_ notification: EncodedNotification) {
        let (overflowNow, queued) = state.withLock { s -> (Bool, Bool) in
            guard !s.overflowed else { return (false, false) }
            guard s.queue.count + session.unreleased < limit else {
                s.overflowed = true
                return (true, false)
            }
            s.queue.append(notification.text)
            // Under the lock, before any release of it can take it away again: the gauge never goes below 0.
            metrics?.depth.increment()
            return (false, true)
        }
        if let metrics {
            metrics.queued.increment()
            if !queued { metrics.dropped.increment() }
        }
        if overflowNow { overflow() }
    }

    /// Hands everything queued to the session, in order, without waiting for any write; synchronous. With no
    /// connection, ``Disconnected`` decides what happens to the queue.
    package func flush() {
        let overflowNow = state.withLock { s -> Bool in
            guard !s.overflowed, !s.queue.isEmpty else { return false }
            switch session.deliver(s.queue) {
            case .handed:
                s.queue.removeAll()
                return false
            case .noConnection:
                if whileDisconnected == .drop { discardQueued(&s) }
                return false
            case .overflow:
                s.overflowed = true
                discardQueued(&s)
                return true
            }
        }
        if overflowNow { overflow() }
    }

    /// How many notifications wait (queued here, or kept by the session until released): what operators watch for
    /// a slow consumer (docs/operations.md#rooms). Synchronous and cheap, so a caller may read it under its own lock.
    package var depth: Int {
        state.withLock { s in s.overflowed ? 0 : s.queue.count + session.unreleased }
    }

    private func overflow() {
        metrics?.overflowCloses?.increment()
        let session = session, onOverflow = onOverflow
        Task { await onOverflow(session) }
    }

    private func discardQueued(_ s: inout State) {
        let discarded = s.queue.count
        s.queue.removeAll()
        if discarded > 0, let metrics {
            metrics.depth.decrement(by: Double(discarded))
            metrics.dropped.increment(by: discarded)
        }
    }
}

/// A notification's wire text, encoded once however many ``SessionOutbox``es it is queued in.
package struct EncodedNotification: Sendable {
    /// The JSON-RPC notification text.
    package let text: String

    /// Encodes the notification `method` with `params`.
    package init(method: String, params: JSONValue?) {
        text = RPCMessage.notification(RPCNotification(method: method, params: params)).jsonText
    }
}
