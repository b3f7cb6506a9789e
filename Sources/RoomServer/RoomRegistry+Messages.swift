import JSONRPC
import RoomClusterCore
import RoomProtocol

extension RoomRegistry {
    /// Broadcasts a chat message to the whole room, sender included (docs/wire-protocol.md#room-notifications,
    /// `sendMessage`). The sender and room come from the session: a `userMessage` that is not the caller gets 102, a
    /// `roomMessage` that is not its room 202. `budget` is asked for the fan-out (the notification's bytes times
    /// its recipients, here and on other nodes) under the lock; `nil` when it refused, and nothing was sent.
    func broadcast(_ params: SendMessageParams, session: ServerSession,
                   within budget: (Int) -> Bool) throws(RoomError) -> [SessionOutbox]? {
        try withJoined(session) { (me: inout Participant, room: inout Room) throws(RoomError) -> [SessionOutbox]? in
            guard params.userMessage == me.name else {
                throw RoomError(.userNotFound, message: "userMessage '\(params.userMessage)' is not you ('\(me.name)')")
            }
            guard params.roomMessage == room.name else {
                throw RoomError(.roomNotFound, message: "roomMessage '\(params.roomMessage)' is not your room")
            }
            let message = RoomMessageNotification(room: room.name, user: me.name, message: params.message)
            let note = RoomNotification.sendMessage(message).encoded
            let everyone = room.joinedOutboxes
            guard budget(note.text.utf8.count * (everyone.count + room.remote.count)) else { return nil }
            for outbox in everyone { outbox.enqueue(note) }
            cluster?.post(RoomNotificationMethod.sendMessage.rawValue, room: room.name, user: me.name,
                          payload: params.message)
            return everyone
        }
    }

    /// Sends a private message to one participant of the caller's room (extension `sendPrivateMessage`): the
    /// target alone gets `privateMessage` with the sender taken from the session; an unknown target gets 102. A
    /// target on another node of a cluster gets it through that node. `budget` is asked for the notification's
    /// bytes under the lock. Returns the outbox to flush (none for a target on another node); `nil` when the budget
    /// refused, and nothing was sent.
    func sendPrivate(_ params: SendPrivateMessageParams, session: ServerSession,
                     within budget: (Int) -> Bool) throws(RoomError) -> [SessionOutbox]?
    {
        try withJoined(session) { (me: inout Participant, room: inout Room) throws(RoomError) -> [SessionOutbox]? in
            let note = RoomNotification.privateMessage(.init(user: me.name, message: params.message)).encoded
            if let target = room[params.to], target.phase == .joined {
                guard budget(note.text.utf8.count) else { return nil }
                target.outbox.enqueue(note)
                return [target.outbox]
            }
            guard room.remote[params.to] != nil, let cluster else {
                throw RoomError(.userNotFound, message: "User '\(params.to)' not found in room '\(room.name)'")
            }
            guard budget(note.text.utf8.count) else { return nil }
            let payload = JSONValue.object(["to": .string(params.to), "message": .string(params.message)]).jsonText
            cluster.post(RoomNotificationMethod.privateMessage.rawValue, room: room.name, user: me.name, payload: payload)
            return []
        }
    }
}
