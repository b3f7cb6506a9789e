/// The Kurento response conventions of docs/wire-protocol.md#kurento-conventions, applied by ``JSONRPCServer`` when
/// ``JSONRPCServer/Conventions/kurento`` is on. `Schemas/kurento-conventions.schema.json` encodes the same table.
public enum KurentoConventions {
    /// A handler's result as a Kurento server sends it:
    /// object → `{…, "sessionId"}`; other value → `{"value": v, "sessionId"}`; void (`nil`) → `{"sessionId"}`.
    public static func result(_ value: JSONValue?, sessionId: String) -> JSONValue {
        switch value {
        case nil: return ["sessionId": .string(sessionId)]
        case .object(var members)?:
            members["sessionId"] = .string(sessionId)
            return .object(members)
        case let other?: return ["value": other, "sessionId": .string(sessionId)]
        }
    }

    /// A handler's error as a Kurento server sends it: the sessionId goes into `data`. Null or absent data →
    /// `{"sessionId"}`; an object gains `sessionId`; any other value (a string in Kurento) → `{"value": d, "sessionId"}`.
    /// Code -1 is left as it is: a Kurento server sends it only for an exception its handler did not catch, past the
    /// transaction that would inject the session (Kurento/kurento `JsonRpcHandlerManager.handleRequest`,
    /// `ResponseError.newFromException`).
    public static func error(_ error: RPCErrorObject, sessionId: String) -> RPCErrorObject {
        guard error.code != -1 else { return error }
        var error = error
        switch error.data {
        case nil, .null?: error.data = ["sessionId": .string(sessionId)]
        case .object(var members)?:
            members["sessionId"] = .string(sessionId)
            error.data = .object(members)
        case let other?: error.data = ["value": other, "sessionId": .string(sessionId)]
        }
        return error
    }

    /// Built-in method names handled before the application's router (docs/wire-protocol.md#built-ins,
    /// `ProtocolManager`).
    public static let ping = "ping", connect = "connect", closeSession = "closeSession"

    /// The notification a client that counts notifications sends to acknowledge them, `{"received": N}`
    /// (docs/wire-protocol.md#delivery). In JSON-RPC 2.0's reserved `rpc.` namespace, so it never meets an
    /// application's method; a stock server never gets one (our clients send it only to a server that lists
    /// ``ServerCapabilities/replay``).
    public static let acknowledge = "rpc.ack"

    /// The error `connect{sessionId}` gets for an unknown session (docs/wire-protocol.md#sessions), exactly: no `data`.
    public static let reconnectionError = RPCErrorObject(code: 40007, message: "reconnection error")
}
