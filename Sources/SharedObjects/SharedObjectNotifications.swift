public import JSONRPC

/// `sharedObject.update` params: `{name, version, changed, sender?}`. `changed` holds only the keys this version
/// changed, with their new values; `null` means the key was removed.
public struct SharedObjectUpdate: Sendable, Hashable {
    /// The object's name.
    public var name: String
    /// The version the change made (the previous version + 1).
    public var version: Int
    /// The changed keys and their new values (`JSONValue.null`: removed).
    public var changed: [String: JSONValue]
    /// Whose `sharedObject.set` made the change, as the server knows that session. `nil` from a server that does
    /// not say, and for an update a cluster node made up by reading the whole object again after a lost update
    /// (it may merge several changes).
    public var sender: SharedObjectSender?

    /// Creates an update.
    public init(name: String, version: Int, changed: [String: JSONValue], sender: SharedObjectSender? = nil) {
        self.name = name
        self.version = version
        self.changed = changed
        self.sender = sender
    }

    /// Reads the notification's params.
    public init(json: JSONValue?) throws(RPCErrorObject) {
        let reader = try WireReader(json, SharedObjectNotificationMethod.update.rawValue)
        name = try reader.string("name")
        version = try reader.int("version")
        changed = try reader.object("changed")
        sender = try SharedObjectSender(ifPresent: reader.members["sender"])
    }

    /// The params on the wire.
    public var json: JSONValue {
        .adding(sender, to: ["name": .string(name), "version": .int(version), "changed": .object(changed)])
    }
}

/// `sharedObject.message` params: `{name, method, params?, sender?}`, sent to every client of the object, the
/// sender included.
public struct SharedObjectMessage: Sendable, Hashable {
    /// The object's name.
    public var name: String
    /// The application's message name.
    public var method: String
    /// The application's payload.
    public var params: JSONValue?
    /// Who sent it, as the server knows that session (never what `params` claim); `nil` from a server that does
    /// not say.
    public var sender: SharedObjectSender?

    /// Creates a message.
    public init(name: String, method: String, params: JSONValue?, sender: SharedObjectSender? = nil) {
        self.name = name
        self.method = method
        self.params = params
        self.sender = sender
    }

    /// Reads the notification's params.
    public init(json: JSONValue?) throws(RPCErrorObject) {
        let send = try SharedObjectSendParams(json: json)
        self.init(name: send.name, method: send.method, params: send.params,
                  sender: try SharedObjectSender(ifPresent: json?["sender"]))
    }

    /// The params on the wire.
    public var json: JSONValue {
        .adding(sender, to: SharedObjectSendParams(name: name, method: method, params: params).json.objectValue ?? [:])
    }
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
