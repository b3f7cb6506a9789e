/// `mediaError` params (docs/wire-protocol.md#room-notifications): `{"error": "<description>"}`, sent to the affected
/// participants.
///
/// Our servers add `endpointName` (docs/wire-protocol.md#media-errors): the `endpointName` of the endpoint that
/// failed, as `iceCandidate` names it (the participant's own name for its publisher, the publisher's name for a
/// subscription). The server has already dropped that endpoint, so the client publishes or subscribes again. A stock
/// Kurento server sends no `endpointName`.
public struct MediaErrorNotification: Codable, Sendable, Hashable {
    /// What went wrong, in the server's words.
    public var error: String
    /// The endpoint that failed, when the server says (ours do); `nil` from a stock server.
    public var endpointName: String?

    /// Creates the notification params.
    public init(error: String, endpointName: String? = nil) {
        self.error = error
        self.endpointName = endpointName
    }
}
