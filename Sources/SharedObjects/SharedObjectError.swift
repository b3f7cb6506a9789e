public import JSONRPC

/// The error codes of the shared-object extension (documented in `Schemas/README.md`). Bad params answer
/// -32602 naming the param, and too many updates -32000 "rate limited" (docs/wire-protocol.md#error-codes).
public enum SharedObjectErrorCode: Int, Sendable, Hashable, CaseIterable {
    /// `sharedObject.set`, `.send` on an object this session has not connected to.
    case notConnected = 1101
    /// The server's authorizer refused the connect (for `room:R/…` names: the caller is not a member of room R).
    case unauthorized = 1102
    /// The session is connected to as many objects as the server allows.
    case tooManyObjects = 1103
    /// The change would make the object's JSON text larger than the server allows; nothing was changed.
    case objectTooLarge = 1104
    /// The session sent more `set` and `send` requests per second than the server allows.
    case rateLimited = -32000
}

extension RPCErrorObject {
    /// A shared-object error with `code` and a message a user can act on.
    public static func sharedObject(_ code: SharedObjectErrorCode, _ message: String) -> RPCErrorObject {
        RPCErrorObject(code: code.rawValue, message: message)
    }

    /// The shared-object code of this error, if it has one.
    public var sharedObjectCode: SharedObjectErrorCode? { SharedObjectErrorCode(rawValue: code) }
}
