import JSONRPC
import SharedObjects

/// The shared-object notifications on their way to one session, in the order the service decided them: every
/// session sees one object's updates in version order. Unlike the Room outbox, nothing waits for a lost connection:
/// a client re-syncs every object it holds when it is connected again (`sharedObject.connect` returns the whole
/// state), so what cannot be sent is dropped. A session that overflows its outbox is closed with 1008.
extension SessionOutbox {
    /// The shared-object outbox of `session`: dropped while disconnected, closed with 1008 on overflow.
    convenience init(sharedObjectsOf session: ServerSession, limit: Int) {
        self.init(session: session, limit: limit, whileDisconnected: .drop) { session in
            await session.close(code: 1008, reason: "too many queued shared-object notifications")
        }
    }

    /// Queues a shared-object notification; synchronous, so the service can call it under its lock.
    func enqueue(_ method: SharedObjectNotificationMethod, _ params: JSONValue) {
        enqueue(method: method.rawValue, params: params)
    }
}
