/// `sendMessage` request params (docs/wire-protocol.md#room-requests). A Kurento server checks `userMessage` against
/// the caller's name (else 102) and `roomMessage` against the caller's room (else 202); the broadcast is
/// ``RoomMessageNotification``.
public struct SendMessageParams: Codable, Sendable, Hashable {
    /// The text.
    public var message: String
    /// The sender's own user name.
    public var userMessage: String
    /// The sender's own room name.
    public var roomMessage: String

    /// Creates message params.
    public init(message: String, userMessage: String, roomMessage: String) {
        self.message = message
        self.userMessage = userMessage
        self.roomMessage = roomMessage
    }
}
