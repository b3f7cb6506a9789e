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
