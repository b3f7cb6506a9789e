import JSONRPC
import SharedObjects
import SignalingSupport

/// The shared-object notifications on their way to one session, in the order the service decided them.
///
/// The service enqueues under its own lock, so every session sees one object's updates in version order;
/// ``flush()`` sends them one at a time (whoever finds the outbox idle drains it, the others wait for that drain).
/// It follows RoomServer's `NotificationOutbox`, which is tied to Room notifications, with one difference: nothing
/// waits for a lost connection. A client re-syncs every object it holds when it is connected again
/// (`sharedObject.connect` returns the whole state), so what cannot be sent is dropped.
final class SharedObjectOutbox: Sendable {
    private struct State {
        var queue: [RPCNotification] = []
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

    /// Queues a notification; synchronous, so the service can call it under its lock.
    func enqueue(_ method: SharedObjectNotificationMethod, _ params: JSONValue) {
        state.withLock { s in
            guard !s.overflowed else { return }
            if s.queue.count - s.head >= limit {
                s.overflowed = true
                return
            }
            s.queue.append(RPCNotification(method: method.rawValue, params: params))
        }
    }

    /// Sends everything queued so far and returns once it is out (or dropped, without a connection). When another
    /// task is draining, this one waits for that drain, which sends ours too: a handler may rely on its
    /// notifications having left before its reply (the setter sees its update before the `set` result).
    /// A session that overflowed its outbox is closed with 1008.
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
            let next = state.withLock { s -> RPCNotification? in
                guard s.head < s.queue.count else { return nil }
                defer { s.head += 1 }
                return s.queue[s.head]
            }
            if let next {
                // No connection: dropped; the client re-syncs when it is connected again.
                try? await session.notify(next.method, params: next.params)
                continue
            }
            let (done, waiters, overflowed) = state.withLock { s in
                guard s.head >= s.queue.count else { return (false, [CheckedContinuation<Bool, Never>](), false) }
                s.queue = []
                s.head = 0
                s.draining = false
                defer { s.waiters = [] }
                return (true, s.waiters, s.overflowed)
            }
            guard done else { continue }
            for waiter in waiters { waiter.resume(returning: false) }
            if overflowed { await session.close(code: 1008, reason: "too many queued shared-object notifications") }
            return
        }
    }
}
