/// `sendMessage` notification params (docs/wire-protocol.md#room-notifications): one chat message, broadcast to
/// everyone in the room including its sender.
public struct RoomMessageNotification: Codable, Sendable, Hashable {
    /// The room.
    public var room: String
    /// The sender.
    public var user: String
    /// The text.
    public var message: String

    /// Creates the notification params.
    public init(room: String, user: String, message: String) {
        self.room = room
        self.user = user
        self.message = message
    }
}
