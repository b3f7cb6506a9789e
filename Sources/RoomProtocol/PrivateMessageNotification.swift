/// Extension: `privateMessage` params, `{"user": "<sender>", "message": "..."}`, delivered to the target of a
/// `sendPrivateMessage` only.
public struct PrivateMessageNotification: Codable, Sendable, Hashable {
    /// The sender (taken from the sender's session, never from the request).
    public var user: String
    /// The text.
    public var message: String

    /// Creates the notification params.
    public init(user: String, message: String) {
        self.user = user
        self.message = message
    }
}
