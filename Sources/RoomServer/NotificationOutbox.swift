import JSONRPC
import RoomProtocol
import SignalingSupport

/// The notifications on their way to one session, in the order the room (or tree) state changed.
///
/// The room and tree registries enqueue under their own lock, so two handlers that change the state one after
/// the other also queue their notifications in that order; ``flush()`` then sends them one at a time (whoever
/// finds the outbox idle drains it). Without it, `participantLeft` could overtake the `participantJoined` it
/// follows. While the session has no connection, notifications stay here (at most
/// ``RoomServerLimits/maxQueuedNotifications``) and are sent when it resumes; one more ends the session.
final class NotificationOutbox: Sendable {
    /// One queued notification, as sent.
    private struct Queued {
        var method: String
        var params: JSONValue?
    }
    private struct State {
        var queue: [Queued] = []
        var head = 0
        var draining = false
        var overflowed = false
        var waiters: [CheckedContinuation<Bool, Never>] = []
    }
    let session: ServerSession
    private let limit: Int
    private let state = LockedValue(State())

    init(session: ServerSession, limit: Int) {
        self.session = session
        self.limit = max(1, limit)
    }

    /// Queues a Room `notification`; synchronous, so the registry can call it under its lock.
    func enqueue(_ notification: RoomNotification) {
        enqueue(method: notification.method.rawValue, params: notification.params)
    }

    /// Queues a Tree `notification` (PROTOCOL §5); synchronous, so the registry can call it under its lock.
    func enqueue(_ notification: TreeNotification) {
        enqueue(method: notification.method.rawValue, params: notification.params)
    }

    private func enqueue(method: String, params: JSONValue?) {
        state.withLock { s in
            guard !s.overflowed else { return }
            if s.queue.count - s.head >= limit {
                s.overflowed = true
                return
            }
            s.queue.append(Queued(method: method, params: params))
        }
    }

    /// Sends everything queued so far and returns once it is out, or once the session turns out to have no
    /// connection: then the rest waits for ``flush()`` after the session resumes (DESIGN §5 outbox). When another
    /// task is already draining the outbox, this one waits for that drain to finish (it sends ours too), so a
    /// caller may rely on its notifications having left (`roomClosed` before the close, candidates before the
    /// answer). A session that overflowed its outbox is ended (its client gets 40007 on `connect`) and its
    /// connection, if any, closed with 1008, once what was queued before has gone out or could not (DESIGN §2:
    /// one slow consumer never slows a room; §5: overflow ends the session).
    func flush() async {
        let claimed = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
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
        guard claimed else { return }
        while true {
            let next = state.withLock { s -> Queued? in
                s.head < s.queue.count ? s.queue[s.head] : Optional.none
            }
            var disconnected = false
            if let next {
                do {
                    try await session.notify(next.method, params: next.params)
                    state.withLock { $0.head += 1 }
                    continue
                } catch {
                    // No connection (the reconnection window): keep it for the resume (DESIGN §5).
                    disconnected = true
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
                defer { s.waiters = [] }
                return (true, s.waiters, s.overflowed)
            }
            guard done else { continue }
            for waiter in waiters { waiter.resume(returning: false) }
            if overflowed { await session.end(code: 1008, reason: "too many queued notifications") }
            return
        }
    }
}
