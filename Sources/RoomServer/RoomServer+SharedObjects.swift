import JSONRPC
import SharedObjectServer
import SharedObjects

extension RoomServer {
    /// The service of ``Configuration/sharedObjects``, with the room scope in front of the application's
    /// authorizer: `room:R/…` objects are for the members of room R.
    static func sharedObjectService(_ configuration: SharedObjectService.Configuration,
                                    registry: RoomRegistry) -> SharedObjectService {
        var configuration = configuration
        let authorize = configuration.authorize
        configuration.authorize = { access in
            if let room = try SharedObjectName.room(of: access.name) {
                guard registry.membership(of: access.session)?.room == room else {
                    throw RPCErrorObject.sharedObject(
                        .unauthorized, "join room '\(room)' first: '\(access.name)' is for the room's members")
                }
            }
            return try await authorize(access)
        }
        return SharedObjectService(configuration: configuration)
    }

    /// Detaches a departing member from its room's objects; it gets `sharedObject.closed` with `reason`.
    func revokeRoomObjects(of session: ServerSession, room: String, reason: String) async {
        await sharedObjects?.revoke(session, reason: reason) { name in
            (try? SharedObjectName.room(of: name)) == room
        }
    }
}
