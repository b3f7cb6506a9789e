public import JSONRPC

/// A `customRequest` as the application's handler sees it (docs/wire-protocol.md#room-requests: free-form params,
/// app-defined result).
public struct RoomCustomRequest: Sendable {
    /// The request's params (`{}` when absent).
    public var params: JSONValue
    /// The caller's user name, once it has joined; taken from the session, never from the params.
    public var user: String?
    /// The caller's room, once it has joined.
    public var room: String?
    /// The caller's session, for application notifications (`session.notify`).
    public var session: ServerSession

    /// Creates a request.
    public init(params: JSONValue, user: String?, room: String?, session: ServerSession) {
        self.params = params
        self.user = user
        self.room = room
        self.session = session
    }
}

extension RoomCustomRequest {
    /// The params decoded as `P`.
    /// - Throws: ``/JSONRPC/RPCErrorObject`` -32602 (invalid params) when they do not decode; thrown on from a
    ///   handler, it is the caller's error.
    public func decodeParams<P: Decodable>(as type: P.Type = P.self) throws -> P {
        do {
            return try params.decode(as: P.self)
        } catch {
            throw RPCErrorObject.invalidParams("customRequest params do not decode as \(P.self): \(error)")
        }
    }

    /// A ``RoomServer/Configuration/customRequest`` handler over Codable types, in place of reading and building
    /// `JSONValue`s: the params decode as `P` (the caller gets -32602 when they do not), and what `body` returns is the
    /// result (``/JSONRPC/EmptyResult`` for `{}`). `body` also gets the request, for the caller's user, room and
    /// session. Errors thrown by `body` are answered as from any handler.
    ///
    /// ```swift
    /// configuration.customRequest = RoomCustomRequest.handler { (ping: Ping, request) in
    ///     Pong(text: "pong", user: request.user)
    /// }
    /// ```
    public static func handler<P: Decodable & SendableMetatype, R: Encodable & SendableMetatype>(
        _ body: @escaping @Sendable (P, RoomCustomRequest) async throws -> R
    ) -> @Sendable (RoomCustomRequest) async throws -> JSONValue? {
        { request in
            let result = try await body(try request.decodeParams(as: P.self), request)
            do {
                return try JSONValue(encoding: result)
            } catch {
                throw RPCErrorObject.internalError("customRequest result does not encode: \(error)")
            }
        }
    }
}
