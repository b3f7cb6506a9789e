import JSONRPC
import RoomProtocol
import SignalingSupport

/// The notifications on their way to one session, in the order the room state changed.
///
/// The room registry enqueues under its own lock, so two handlers that change the state one after the other also
/// queue their notifications in that order; ``flush()`` then sends them one at a time (whoever finds the outbox
/// idle drains it). Without it, `participantLeft` could overtake the `participantJoined` it follows. While the
/// session has no connection, notifications stay here (at most ``RoomServerLimits/maxQueuedNotifications``) and
/// are sent when it resumes.
final class NotificationOutbox: Sendable {
    private struct State {
        var queue: [RoomNotification] = []
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

    /// Queues `notification`; synchronous, so the registry can call it under its lock.
    func enqueue(_ notification: RoomNotification) {
        state.withLock { s in
            guard !s.overflowed else { return }
            if s.queue.count - s.head >= limit {
                s.overflowed = true
                return
            }
            s.queue.append(notification)
        }
    }

    /// Sends everything queued so far and returns once it is out, or once the session turns out to have no
    /// connection: then the rest waits for ``flush()`` after the session resumes (DESIGN §5 outbox). When another
    /// task is already draining the outbox, this one waits for that drain to finish (it sends ours too), so a
    /// caller may rely on its notifications having left (`roomClosed` before the close, candidates before the
    /// answer). A session that
    /// overflowed its outbox is closed with 1008 (DESIGN §2: one slow consumer never slows a room).
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
            let next = state.withLock { s -> RoomNotification? in
                s.head < s.queue.count ? s.queue[s.head] : Optional.none
            }
            var disconnected = false
            if let next {
                do {
                    try await session.notify(next.method.rawValue, params: next.params)
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
            if overflowed { await session.close(code: 1008, reason: "too many queued notifications") }
            return
        }
    }
}
