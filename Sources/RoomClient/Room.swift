/// The room a ``RoomClient`` joins: who (``username``), which room (``name``) and where (``url``). The
/// NBMRoom counterpart (docs/wire-protocol.md#counterparts), without its peer set: the participants live in
/// ``RoomClient/peers``.
public struct Room: Sendable, Hashable {
    /// The local user's name. A server refuses names that are empty, contain `_` or control, format or bidi
    /// characters (``/RoomProtocol/RoomNaming/validateUserName(_:)``), or look like a member's (104), and uses the
    /// NFKC form of the name (docs/wire-protocol.md#room-naming).
    public var username: String
    /// The room's name; the server creates the room on first join.
    public var name: String
    /// The room server's WebSocket endpoint, e.g. `ws://127.0.0.1:8443/room` or `wss://…/room` (`http://` and
    /// `https://`, as the Kurento iOS toolbox writes them, dial as `ws://` and `wss://`).
    public var url: String

    /// Describes a room to join.
    /// - Parameters:
    ///   - username: The local user's name.
    ///   - roomName: The room's name.
    ///   - url: The room server's `ws://` or `wss://` endpoint (or `http://`/`https://`, read as those).
    public init(username: String, roomName: String, url: String) {
        self.username = username
        name = roomName
        self.url = url
    }
}
