import CoreMetrics
import DequeModule
import SignalingSupport

/// The notifications on their way to one server session, in the order they were queued. Nothing here ever waits
/// for a socket: one member that stops reading never slows the others (docs/architecture.md#backpressure).
///
/// Servers built on ``JSONRPCServer`` ``enqueue(_:)`` under their own state lock, so two handlers that change the
/// state one after the other also queue their notifications in that order, and call ``flush()`` once the lock is
/// released. `flush()` hands every queued notification to the session's connection
/// (``MessageConnection/enqueue(_:whenWritten:)``) and returns at once; by then they are in the connection's
/// queue, ahead of anything the caller sends on it next (a handler's notifications before its reply).
///
/// A notification stays in the outbox until its connection reports it written. One that the connection could
/// not write before it ended is handed again, in order, to the connection of the next ``flush()`` after the
/// session resumes (``Disconnected/keep``, the Room and Tree servers), or discarded (``Disconnected/drop``:
/// clients that re-sync on their own, like shared objects). A broadcast encodes its notification once
/// (``EncodedNotification``) for every outbox it goes to.
///
/// At most `limit` notifications wait unwritten, counted when one is queued: one more marks the outbox
/// overflowed, drops it and everything after it, and runs `onOverflow` once (the Room server ends the session and
/// closes its socket with 1008), whether the session is disconnected or connected to a peer that stopped reading.
///
/// With the server's metrics on (docs/operations.md#metrics), every notification queued is counted, then either
/// sent (its connection reported it written) or dropped (refused once overflowed, discarded while disconnected,
/// or still here when the outbox is released with its session), and the depth gauge follows the queue.
package final class SessionOutbox: Sendable {
    /// What happens to a notification that cannot be sent because the session has no connection.
    package enum Disconnected: Sendable {
        /// It waits for the next ``SessionOutbox/flush()``, after the session resumes.
        case keep
        /// It is discarded.
        case drop
    }

    private struct State {
        /// Every notification not yet reported written, oldest first.
        var queue = Deque<String>()
        /// How many of the first ones were handed to `target` in `epoch`.
        var handed = 0
        var target: ConnectionBinding?
        var epoch: UInt64 = 0
        var overflowed = false
    }

    /// What the connections report; its own lock, so that a report never takes the outbox's lock, which is held
    /// around ``MessageConnection/enqueue(_:whenWritten:)`` (an in-memory connection reports from inside it).
    private struct Reports {
        var epoch: UInt64 = 0
        /// Written since the outbox last looked, in `epoch`.
        var written = 0
        /// A notification of `epoch` was not written: its connection ended.
        var failed = false
        /// The outbox is gone: a notification of `epoch` that is not written now never will be.
        var released = false
    }

    /// The session the notifications go to.
    package let session: ServerSession
    private let limit: Int
    private let whileDisconnected: Disconnected
    private let onOverflow: @Sendable (ServerSession) async -> Void
    private let state = LockedValue(State())
    private let reports = LockedValue(Reports())
    /// The session's server's counters, if on.
    private let metrics: OutboxMetrics?

    /// Creates the outbox of `session`, holding at most `limit` unwritten notifications.
    package init(session: ServerSession, limit: Int, whileDisconnected: Disconnected,
                 onOverflow: @escaping @Sendable (ServerSession) async -> Void) {
        self.session = session
        self.limit = max(1, limit)
        self.whileDisconnected = whileDisconnected
        self.onOverflow = onOverflow
        metrics = session.metrics?.outbox
    }

    deinit {
        guard let metrics else { return }
        // What is still queued (not reported written) leaves the depth; what was never handed to a connection is
        // dropped, and a handed one not reported yet is counted when its connection reports it (written: sent,
        // failed: dropped).
        state.withLock { s in
            collectReports(&s, releasing: true)
            if !s.queue.isEmpty { metrics.depth.decrement(by: Double(s.queue.count)) }
            if s.queue.count > s.handed { metrics.dropped.increment(by: s.queue.count - s.handed) }
        }
    }

    /// Queues a notification; synchronous, so callers can queue under their own lock.
    package func enqueue(method: String, params: JSONValue?) {
        enqueue(EncodedNotification(method: method, params: params))
    }

    /// Queues a notification encoded once for every outbox it goes to (a broadcast); synchronous and cheap: it
    /// only appends (``flush()`` hands it to the connection). One past the limit overflows the outbox.
    package func enqueue(_ notification: EncodedNotification) {
        let (overflowNow, queued) = state.withLock { s -> (Bool, Bool) in
            guard !s.overflowed else { return (false, false) }
            collectReports(&s)
            guard s.queue.count < limit else {
                s.overflowed = true
                return (true, false)
            }
            s.queue.append(notification.text)
            // Under the lock, before any report of it can take it away again: the gauge never goes below 0.
            metrics?.depth.increment()
            return (false, true)
        }
        if let metrics {
            metrics.queued.increment()
            if !queued { metrics.dropped.increment() }
            if overflowNow { metrics.overflowCloses?.increment() }
        }
        if overflowNow {
            let session = session, onOverflow = onOverflow
            Task { await onOverflow(session) }
        }
    }

    /// Hands everything queued to the session's current connection, in order, without waiting for any write;
    /// synchronous. With no connection, ``Disconnected`` decides what happens to the queue.
    package func flush() {
        state.withLock { s in
            collectReports(&s)
            guard !s.overflowed else { return }
            guard let binding = session.currentBinding else {
                if whileDisconnected == .drop { discardUnhanded(&s) }
                return
            }
            if s.target !== binding {
                // A new connection (a resume, or a takeover): everything not reported written goes to it, and the
                // old connection's reports no longer count.
                startEpoch(&s)
                s.target = binding
            }
            while s.handed < s.queue.count {
                let epoch = s.epoch, reports = reports, metrics = metrics
                do {
                    // The report reaches `reports`, not the outbox, so that a notification written (or lost) after
                    // the outbox was released is still counted.
                    try binding.connection.enqueue(s.queue[s.handed]) { end in
                        Self.report(end, epoch: epoch, to: reports, metrics: metrics)
                    }
                    s.handed += 1
                } catch {
                    // The connection is closing: its end detaches the session; the rest waits (or is dropped).
                    if whileDisconnected == .drop { discardUnhanded(&s) }
                    return
                }
            }
        }
    }

    /// How many notifications wait unwritten (queued, or handed to a connection that has not written them yet):
    /// what operators watch for a slow consumer (docs/operations.md#rooms). Synchronous and cheap, so a caller may read
    /// it under its own lock.
    package var depth: Int {
        state.withLock { s in
            collectReports(&s)
            return s.overflowed ? 0 : s.queue.count
        }
    }

    /// A connection's report on one notification it was handed.
    private static func report(_ end: ConnectionEnd?, epoch: UInt64, to reports: LockedValue<Reports>,
                               metrics: OutboxMetrics?) {
        // Written in the current epoch of a live outbox: it leaves the depth now (the queue forgets it later).
        let (leaves, lost) = reports.withLock { r -> (Bool, Bool) in
            guard r.epoch == epoch else { return (false, false) }
            if end == nil { r.written += 1 } else { r.failed = true }
            return (end == nil && !r.released, end != nil && r.released)
        }
        guard let metrics else { return }
        if end == nil { metrics.sent.increment() } else if lost { metrics.dropped.increment() }
        if leaves { metrics.depth.decrement() }
    }

    /// Drops what was reported written; after a failure, takes back what the failed connection held. `releasing`:
    /// the outbox is going away, and later reports count on their own.
    private func collectReports(_ s: inout State, releasing: Bool = false) {
        let (written, failed) = reports.withLock { r in
            defer {
                r.written = 0
                if releasing { r.released = true }
            }
            return (r.written, r.failed)
        }
        let done = min(written, s.handed)
        s.queue.removeFirst(done)
        s.handed -= done
        guard failed else { return }
        if whileDisconnected == .drop {
            if s.handed > 0, let metrics {
                metrics.depth.decrement(by: Double(s.handed))
                metrics.dropped.increment(by: s.handed)
            }
            s.queue.removeFirst(s.handed)
        }
        startEpoch(&s)
        s.target = nil
    }

    private func startEpoch(_ s: inout State) {
        s.epoch += 1
        s.handed = 0
        let epoch = s.epoch
        reports.withLock { $0 = Reports(epoch: epoch, released: $0.released) }
    }

    private func discardUnhanded(_ s: inout State) {
        let discarded = s.queue.count - s.handed
        s.queue.removeLast(discarded)
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
