import JSONRPC
import RoomProtocol

/// The Room and Tree notifications on their way to one session, in the order the room (or tree) state changed.
///
/// The room and tree registries enqueue under their own lock and flush afterwards, so `participantLeft` can never
/// overtake the `participantJoined` it follows. While the session has no connection, notifications stay queued (at
/// most ``RoomServerLimits/maxQueuedNotifications``) and are sent when it resumes; one more ends the session (its
/// client gets 40007 on `connect`) and closes its connection, if any, with 4410: one slow consumer never slows a
/// room, and an overflow ends the session.
extension SessionOutbox {
    /// The Room/Tree outbox of `session`: kept while disconnected, and the session ended on overflow.
    convenience init(roomServerSession session: ServerSession, limit: Int) {
        self.init(session: session, limit: limit, whileDisconnected: .keep) { session in
            await session.end(code: ServerSession.overflowEnd.code, reason: "too many queued notifications")
        }
    }

    /// Queues a Room `notification`; synchronous, so the registry can call it under its lock.
    func enqueue(_ notification: RoomNotification) {
        enqueue(method: notification.method.rawValue, params: notification.params)
    }

    /// Queues a Tree `notification` (docs/wire-protocol.md#tree); synchronous, so the registry can call it under its
    /// lock.
    func enqueue(_ notification: TreeNotification) {
        enqueue(method: notification.method.rawValue, params: notification.params)
    }
}

extension RoomNotification {
    /// The notification's wire text, to queue the same one in many outboxes without encoding it for each.
    var encoded: EncodedNotification { EncodedNotification(method: method.rawValue, params: params) }
}
