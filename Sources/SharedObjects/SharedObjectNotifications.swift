public import JSONRPC

/// `sharedObject.update` params: `{name, version, changed}`. `changed` holds only the keys this version changed,
/// with their new values; `null` means the key was removed.
public struct SharedObjectUpdate: Sendable, Hashable {
    /// The object's name.
    public var name: String
    /// The version the change made (the previous version + 1).
    public var version: Int
    /// The changed keys and their new values (`JSONValue.null`: removed).
    public var changed: [String: JSONValue]

    /// Creates an update.
    public init(name: String, version: Int, changed: [String: JSONValue]) {
        self.name = name
        self.version = version
        self.changed = changed
    }

    /// Reads the notification's params.
    public init(json: JSONValue?) throws(RPCErrorObject) {
        let reader = try WireReader(json, SharedObjectNotificationMethod.update.rawValue)
        name = try reader.string("name")
        version = try reader.int("version")
        changed = try reader.object("changed")
    }

    /// The params on the wire.
    public var json: JSONValue { ["name": .string(name), "version": .int(version), "changed": .object(changed)] }
}

/// `sharedObject.message` params: `{name, method, params?}`, sent to every client of the object, the sender
/// included.
public struct SharedObjectMessage: Sendable, Hashable {
    /// The object's name.
    public var name: String
    /// The application's message name.
    public var method: String
    /// The application's payload.
    public var params: JSONValue?

    /// Creates a message.
    public init(name: String, method: String, params: JSONValue?) {
        self.name = name
        self.method = method
        self.params = params
    }

    /// Reads the notification's params.
    public init(json: JSONValue?) throws(RPCErrorObject) {
        let send = try SharedObjectSendParams(json: json)
        self.init(name: send.name, method: send.method, params: send.params)
    }

    /// The params on the wire.
    public var json: JSONValue { SharedObjectSendParams(name: name, method: method, params: params).json }
}

/// `sharedObject.closed` params: `{name, reason}`: the server detached this client from the object.
public struct SharedObjectClosed: Sendable, Hashable {
    /// The object's name.
    public var name: String
    /// Why, for people.
    public var reason: String

    /// Creates the notification's params.
    public init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }

    /// Reads the notification's params.
    public init(json: JSONValue?) throws(RPCErrorObject) {
        let reader = try WireReader(json, SharedObjectNotificationMethod.closed.rawValue)
        name = try reader.string("name")
        reason = try reader.string("reason")
    }

    /// The params on the wire.
    public var json: JSONValue { ["name": .string(name), "reason": .string(reason)] }
}
