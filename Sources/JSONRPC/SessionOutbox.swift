import SignalingSupport

/// The notifications on their way to one server session, in the order they were queued.
///
/// Servers built on ``JSONRPCServer`` enqueue under their own state lock, so two handlers that change the state
/// one after the other also queue their notifications in that order; ``flush()`` then sends them one at a time
/// (whoever finds the outbox idle drains it, the others wait for that drain, which sends theirs too). Without it
/// a later notification could overtake an earlier one. A broadcast encodes its notification once
/// (``EncodedNotification``) for every outbox it goes to, and flushes the outboxes concurrently.
///
/// While the session has no connection, ``Disconnected`` decides: ``Disconnected/keep`` holds the notifications
/// for a resume (DESIGN §5 outbox: the Room and Tree servers), ``Disconnected/drop`` discards them (clients that
/// re-sync on their own, like shared objects). At most `limit` notifications wait; one more marks the outbox
/// overflowed, and once what was queued before has gone out (or could not) `onOverflow` runs once.
package final class SessionOutbox: Sendable {
    /// What happens to a notification that cannot be sent because the session has no connection.
    package enum Disconnected: Sendable {
        /// It waits for the next ``SessionOutbox/flush()``, after the session resumes.
        case keep
        /// It is discarded.
        case drop
    }

    private struct State {
        var queue: [String] = []
        var head = 0
        var draining = false
        var overflowed = false
        var overflowHandled = false
        var waiters: [CheckedContinuation<Bool, Never>] = []
    }

    /// The session the notifications go to.
    package let session: ServerSession
    private let limit: Int
    private let whileDisconnected: Disconnected
    private let onOverflow: @Sendable (ServerSession) async -> Void
    private let state = LockedValue(State())

    /// Creates the outbox of `session`, holding at most `limit` notifications.
    package init(session: ServerSession, limit: Int, whileDisconnected: Disconnected,
                 onOverflow: @escaping @Sendable (ServerSession) async -> Void) {
        self.session = session
        self.limit = max(1, limit)
        self.whileDisconnected = whileDisconnected
        self.onOverflow = onOverflow
    }

    /// Queues a notification; synchronous, so callers can queue under their own lock.
    package func enqueue(method: String, params: JSONValue?) {
        enqueue(EncodedNotification(method: method, params: params))
    }

    /// Queues a notification encoded once for every outbox it goes to (a broadcast); synchronous.
    package func enqueue(_ notification: EncodedNotification) {
        state.withLock { s in
            guard !s.overflowed else { return }
            if s.queue.count - s.head >= limit {
                s.overflowed = true
                return
            }
            s.queue.append(notification.text)
        }
    }

    /// Sends everything queued so far and returns once it is out, or (``Disconnected/keep``) once the session
    /// turns out to have no connection: the rest then waits for the flush after the resume. A caller may rely on
    /// its notifications having left before it goes on (candidates before the answer, an update before the reply).
    package func flush() async {
        guard await claimDrain() else { return }
        while true {
            let next = state.withLock { s in s.head < s.queue.count ? s.queue[s.head] : Optional.none }
            var disconnected = false
            if let next {
                do {
                    // Awaited: a notification the connection took but could not write before it closed fails
                    // here, and stays queued for the resume (``Disconnected/keep``).
                    try await session.transmit(next)
                    state.withLock { $0.head += 1 }
                    continue
                } catch {
                    switch whileDisconnected {
                    case .drop:
                        state.withLock { $0.head += 1 }
                        continue
                    case .keep:
                        disconnected = true
                    }
                }
            }
            let (done, waiters, overflowed) = state.withLock { s in
                guard disconnected || s.head >= s.queue.count else {
                    return (false, [CheckedContinuation<Bool, Never>](), false)
                }
                if s.head >= s.queue.count {
                    s.queue = []
                    s.head = 0
                }
                s.draining = false
                let runOverflow = s.overflowed && !s.overflowHandled
                if runOverflow { s.overflowHandled = true }
                defer { s.waiters = [] }
                return (true, s.waiters, runOverflow)
            }
            guard done else { continue }
            for waiter in waiters { waiter.resume(returning: false) }
            if overflowed { await onOverflow(session) }
            return
        }
    }

    /// Becomes the drainer (`true`), or waits for the running drain to finish (`false`).
    private func claimDrain() async -> Bool {
        // An idle outbox is claimed without suspending: a continuation resumed at once still re-enqueues the
        // task, one hop per member of a broadcast.
        let idle = state.withLock { s -> Bool in
            guard !s.draining else { return false }
            s.draining = true
            return true
        }
        if idle { return true }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let drainer = state.withLock { s -> Bool in
                if s.draining {
                    s.waiters.append(continuation)
                    return false
                }
                s.draining = true
                return true
            }
            if drainer { continuation.resume(returning: true) }
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
