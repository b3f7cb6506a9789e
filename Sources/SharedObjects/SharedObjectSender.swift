public import JSONRPC

/// Who sent a `sharedObject.update` or `sharedObject.message`, as the server knows the session that sent it; never
/// read from the request, whatever its params say. On the wire: `{"user": NAME, "room": ROOM}` (`room` may be
/// absent) or `{"anonymous": ID}`.
public enum SharedObjectSender: Sendable, Hashable {
    /// A session known as `user`. On a room server, the name it joined `room` with at the time of the change or
    /// message: unique within that room (on a `room:` object every client is a member of the same room; on a
    /// server-wide object two rooms may each have their own `alice`, which `room` tells apart).
    case user(String, room: String?)
    /// A session that has no user (on a room server: it joined no room): an id the server gave that session for
    /// as long as it lives. It tells two sessions apart and nothing else; it is not the session id.
    case anonymous(String)

    /// Reads the wire form; -32602 when it is neither.
    public init(json: JSONValue?) throws(RPCErrorObject) {
        let reader = try WireReader(json, "sender")
        if reader.members["user"] != nil {
            self = .user(try reader.string("user"), room: try reader.optionalString("room"))
        } else {
            self = .anonymous(try reader.string("anonymous"))
        }
    }

    /// Reads a `sender` member that may be missing (`nil`).
    init?(ifPresent json: JSONValue?) throws(RPCErrorObject) {
        guard let json else { return nil }
        try self.init(json: json)
    }

    /// The wire form.
    public var json: JSONValue {
        switch self {
        case .user(let user, room: let room?): ["user": .string(user), "room": .string(room)]
        case .user(let user, room: nil): ["user": .string(user)]
        case .anonymous(let id): ["anonymous": .string(id)]
        }
    }
}

extension JSONValue {
    /// `object` with a `sender` member added when there is one.
    static func adding(_ sender: SharedObjectSender?, to object: [String: JSONValue]) -> JSONValue {
        var members = object
        if let sender { members["sender"] = sender.json }
        return .object(members)
    }
}
