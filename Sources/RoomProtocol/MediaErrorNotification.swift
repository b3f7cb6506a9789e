/// `mediaError` params (docs/wire-protocol.md#room-notifications): `{"error": "<description>"}`, sent to the affected
/// participants.
public struct MediaErrorNotification: Codable, Sendable, Hashable {
    /// What went wrong, in the server's words.
    public var error: String

    /// Creates the notification params.
    public init(error: String) { self.error = error }
}
