/// `roomClosed` params (docs/wire-protocol.md#room-notifications): `{"room": "<room>"}`, sent to everyone when the
/// application closes the room.
public struct RoomClosedNotification: Codable, Sendable, Hashable {
    /// The room that closed.
    public var room: String

    /// Creates the notification params.
    public init(room: String) { self.room = room }
}
