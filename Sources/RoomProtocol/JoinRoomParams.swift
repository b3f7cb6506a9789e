/// `joinRoom` params (docs/wire-protocol.md#room-requests): who joins which room.
public struct JoinRoomParams: Codable, Sendable, Hashable {
    /// The user name; ``RoomNaming/validateUserName(_:)`` says which names a server accepts.
    public var user: String
    /// The room name; the server creates the room on first join.
    public var room: String
    /// Whether the client wants data channels. Optional on the wire: the iOS client sends it, the JS client and
    /// the second join of the transcript in docs/wire-protocol.md#room do not.
    public var dataChannels: Bool?

    /// Creates join params.
    public init(user: String, room: String, dataChannels: Bool? = nil) {
        self.user = user
        self.room = room
        self.dataChannels = dataChannels
    }
}
