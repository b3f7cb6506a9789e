import JSONRPC
import RoomCluster
import RoomProtocol

extension RoomRegistry {
    /// Broadcasts a chat message to the whole room, sender included (docs/wire-protocol.md#room-notifications,
    /// `sendMessage`). The sender and room come from the session: a `userMessage` that is not the caller gets 102, a
    /// `roomMessage` that is not its room 202.
    func broadcast(_ params: SendMessageParams, session: ServerSession) throws(RoomError) -> [SessionOutbox] {
        try withJoined(session) { (me: inout Participant, room: inout Room) throws(RoomError) in
            guard params.userMessage == me.name else {
                throw RoomError(.userNotFound, message: "userMessage '\(params.userMessage)' is not you ('\(me.name)')")
            }
            guard params.roomMessage == room.name else {
                throw RoomError(.roomNotFound, message: "roomMessage '\(params.roomMessage)' is not your room")
            }
            let message = RoomMessageNotification(room: room.name, user: me.name, message: params.message)
            let note = RoomNotification.sendMessage(message).encoded
            let everyone = room.joined.map(\.outbox)
            for outbox in everyone { outbox.enqueue(note) }
            cluster?.post(RoomNotificationMethod.sendMessage.rawValue, room: room.name, user: me.name,
                          payload: params.message)
            return everyone
        }
    }

    /// Sends a private message to one participant of the caller's room (extension `sendPrivateMessage`): the
    /// target alone gets `privateMessage` with the sender taken from the session; an unknown target gets 102. A
    /// target on another node of a cluster gets it through that node. Returns the outbox to flush, if local.
    func sendPrivate(_ params: SendPrivateMessageParams, session: ServerSession)
        throws(RoomError) -> SessionOutbox?
    {
        try withJoined(session) { (me: inout Participant, room: inout Room) throws(RoomError) in
            if let target = room[params.to], target.phase == .joined {
                target.outbox.enqueue(.privateMessage(.init(user: me.name, message: params.message)))
                return target.outbox
            }
            guard room.remote[params.to] != nil, let cluster else {
                throw RoomError(.userNotFound, message: "User '\(params.to)' not found in room '\(room.name)'")
            }
            let payload = JSONValue.object(["to": .string(params.to), "message": .string(params.message)]).jsonText
            cluster.post(RoomNotificationMethod.privateMessage.rawValue, room: room.name, user: me.name, payload: payload)
            return nil
        }
    }
}
