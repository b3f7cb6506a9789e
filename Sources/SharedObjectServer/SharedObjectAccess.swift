public import JSONRPC

/// What an authorizer sees when a session asks to connect to an object.
public struct SharedObjectAccess: Sendable {
    /// The object's name.
    public var name: String
    /// Whether the client asked for a persistent object.
    public var persistent: Bool
    /// The caller's session (its connection carries the WebSocket upgrade request, for tokens).
    public var session: ServerSession

    /// Creates an access description.
    public init(name: String, persistent: Bool, session: ServerSession) {
        self.name = name
        self.persistent = persistent
        self.session = session
    }
}
