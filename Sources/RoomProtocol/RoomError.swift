public import JSONRPC

/// A Room error: a ``RoomErrorCode`` with the server's message (docs/architecture.md#error-types). Servers throw
/// ``errorObject``; clients build it from the ``/JSONRPC/RPCErrorObject`` or ``/JSONRPC/RPCError`` they got
/// whenever the code is a Room code.
public struct RoomError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The code.
    public var code: RoomErrorCode
    /// The server's message.
    public var message: String
    /// The error's `data` (a Kurento server puts the `sessionId` there, docs/wire-protocol.md#kurento-conventions).
    public var data: JSONValue?

    /// Creates a Room error.
    public init(_ code: RoomErrorCode, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// The Room error an error object carries; `nil` when its code is not a Room code (e.g. -32602).
    public init?(_ error: RPCErrorObject) {
        guard let code = RoomErrorCode(rawValue: error.code) else { return nil }
        self.init(code, message: error.message, data: error.data)
    }

    /// The Room error a failed call carries; `nil` for local failures and non-Room codes.
    public init?(_ error: RPCError) {
        guard let remote = error.remoteError else { return nil }
        self.init(remote)
    }

    /// The JSON-RPC error object a server answers with.
    public var errorObject: RPCErrorObject { RPCErrorObject(code: code.rawValue, message: message, data: data) }

    public var description: String { "room error \(code): \(message)" }
}

extension RoomError {
    /// 104 with Kurento's exact text (docs/wire-protocol.md#room-errors).
    public static func existingUser(_ user: String, room: String) -> RoomError {
        RoomError(.existingUserInRoom, message: "User '\(user)' already exists in room '\(room)'")
    }

    /// 104 for a name that looks like a member's (the same confusable skeleton, ``RoomNaming/skeleton(_:)``;
    /// docs/wire-protocol.md#room-naming).
    public static func lookAlike(_ user: String, of member: String, room: String) -> RoomError {
        RoomError(.existingUserInRoom, message: "User '\(user)' looks like '\(member)', who is already in room '\(room)'")
    }

    /// 101 for a second `joinRoom` on one session (docs/wire-protocol.md#room-errors).
    public static func alreadyInRoom(_ room: String) -> RoomError {
        RoomError(.userGeneric, message: "already in room \(room)")
    }

    /// 401 for a join the authorizer refused (docs/architecture.md#identity).
    public static let unauthorized = RoomError(.unauthorized, message: "unauthorized")
}
