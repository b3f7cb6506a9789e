public import JSONRPC

/// An object's whole state at one version: the `sharedObject.connect` result
/// (`{name, version, persistent, data}`, plus the `sessionId` a Kurento-convention server adds).
public struct SharedObjectState: Sendable, Hashable {
    /// The object's name.
    public var name: String
    /// The version of the last change the state includes; 0 for a new object. Each change the server accepts
    /// adds 1.
    public var version: Int
    /// Whether the server keeps the object in its store.
    public var persistent: Bool
    /// The properties: a top-level object with string keys and any JSON values.
    public var data: [String: JSONValue]

    /// Creates a state.
    public init(name: String, version: Int, persistent: Bool, data: [String: JSONValue]) {
        self.name = name
        self.version = version
        self.persistent = persistent
        self.data = data
    }

    /// Reads a connect result (ignoring the injected `sessionId`).
    public init(json: JSONValue) throws(RPCErrorObject) {
        let reader = try WireReader(json, "sharedObject.connect result")
        name = try reader.string("name")
        version = try reader.int("version")
        persistent = try reader.bool("persistent", default: false)
        data = try reader.object("data")
    }

    /// The state on the wire.
    public var json: JSONValue {
        ["name": .string(name), "version": .int(version), "persistent": .bool(persistent), "data": .object(data)]
    }
}
