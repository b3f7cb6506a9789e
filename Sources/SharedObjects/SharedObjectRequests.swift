public import JSONRPC

/// `sharedObject.connect` params: `{name, persistent?}` (`persistent` defaults to false).
public struct SharedObjectConnectParams: Sendable, Hashable {
    /// The object's name (see ``SharedObjectName``).
    public var name: String
    /// Whether a new object is kept in the server's store. An existing object keeps the persistence it was
    /// created with (the result says which).
    public var persistent: Bool

    /// Creates the params.
    public init(name: String, persistent: Bool) {
        self.name = name
        self.persistent = persistent
    }

    /// Reads the params; -32602 naming the param when they do not fit.
    public init(json: JSONValue?) throws(RPCErrorObject) {
        let reader = try WireReader(json, SharedObjectMethod.connect.rawValue)
        name = try reader.string("name")
        persistent = try reader.bool("persistent", default: false)
        try SharedObjectName.validate(name)
    }

    /// The params on the wire.
    public var json: JSONValue { ["name": .string(name), "persistent": .bool(persistent)] }
}

/// `sharedObject.set` params: `{name, properties}`; a `null` value removes its key.
public struct SharedObjectSetParams: Sendable, Hashable {
    /// The object's name.
    public var name: String
    /// The keys to change, applied atomically; `JSONValue.null` removes a key.
    public var properties: [String: JSONValue]

    /// Creates the params.
    public init(name: String, properties: [String: JSONValue]) {
        self.name = name
        self.properties = properties
    }

    /// Reads the params; -32602 when `properties` is missing, empty or has an empty key.
    public init(json: JSONValue?) throws(RPCErrorObject) {
        let reader = try WireReader(json, SharedObjectMethod.set.rawValue)
        name = try reader.string("name")
        properties = try reader.object("properties")
        try SharedObjectName.validate(name)
        if properties.isEmpty { throw .invalidParams("sharedObject.set: param 'properties' must not be empty") }
        if properties.keys.contains("") { throw .invalidParams("sharedObject.set: property keys must not be empty") }
    }

    /// The params on the wire.
    public var json: JSONValue { ["name": .string(name), "properties": .object(properties)] }
}

/// `sharedObject.send` params: `{name, method, params?}`.
public struct SharedObjectSendParams: Sendable, Hashable {
    /// The object's name.
    public var name: String
    /// The application's message name.
    public var method: String
    /// The application's payload, any JSON.
    public var params: JSONValue?

    /// Creates the params.
    public init(name: String, method: String, params: JSONValue?) {
        self.name = name
        self.method = method
        self.params = params
    }

    /// Reads the params; -32602 naming the param when they do not fit.
    public init(json: JSONValue?) throws(RPCErrorObject) {
        let reader = try WireReader(json, SharedObjectMethod.send.rawValue)
        name = try reader.string("name")
        method = try reader.string("method")
        params = reader.members["params"]
        try SharedObjectName.validate(name)
        if method.isEmpty { throw .invalidParams("sharedObject.send: param 'method' must not be empty") }
    }

    /// The params on the wire.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["name": .string(name), "method": .string(method)]
        if let params { members["params"] = params }
        return .object(members)
    }
}

/// `sharedObject.close` params: `{name}`.
public struct SharedObjectCloseParams: Sendable, Hashable {
    /// The object's name.
    public var name: String

    /// Creates the params.
    public init(name: String) { self.name = name }

    /// Reads the params; -32602 naming the param when they do not fit.
    public init(json: JSONValue?) throws(RPCErrorObject) {
        name = try WireReader(json, SharedObjectMethod.close.rawValue).string("name")
        try SharedObjectName.validate(name)
    }

    /// The params on the wire.
    public var json: JSONValue { ["name": .string(name)] }
}
