import JSONRPC
import SharedObjectServer
import SharedObjects

extension RoomServer {
    /// The service of ``Configuration/sharedObjects``, with the room scope in front of the application's
    /// authorizer (`room:R/…` objects are for the members of room R), and the user and room a session joined as the
    /// sender of its updates and messages (unless the application identifies sessions itself).
    static func sharedObjectService(_ configuration: SharedObjectService.Configuration,
                                    registry: RoomRegistry) -> SharedObjectService {
        var configuration = configuration
        let authorize = configuration.authorize, identify = configuration.identify
        configuration.authorize = { access in
            if let room = try SharedObjectName.room(of: access.name) {
                let member = registry.membership(of: access.session)?.room
                guard member == room else { throw roomScopeRefusal(access.name, room: room, member: member) }
            }
            return try await authorize(access)
        }
        configuration.identify = { session in
            identify(session) ?? registry.membership(of: session).map { .user($0.user, room: $0.room) }
        }
        return SharedObjectService(configuration: configuration)
    }

    /// 1102 for a `room:` object of another room than the caller's (`member`, if any): which room it is for, and
    /// how the caller's own room's objects are named when it holds a `/` or a `%`.
    static func roomScopeRefusal(_ name: String, room: String, member: String?) -> RPCErrorObject {
        var message = "join room '\(room)' first: '\(name)' is for the room's members"
        if let member, member.contains(where: { $0 == "/" || $0 == "%" }) {
            message += "; your room's objects are named '\(SharedObjectName.roomScoped("<name>", in: member))'"
        }
        return .sharedObject(.unauthorized, message)
    }

    /// Detaches a departing member from its room's objects; it gets `sharedObject.closed` with `reason`.
    func revokeRoomObjects(of session: ServerSession, room: String, reason: String) async {
        await sharedObjects?.revoke(session, reason: reason) { name in
            (try? SharedObjectName.room(of: name)) == room
        }
    }
}
