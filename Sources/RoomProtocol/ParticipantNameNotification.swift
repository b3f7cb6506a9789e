/// The `{"name": "<user>"}` params shared by `participantUnpublished` and `participantLeft`
/// (docs/wire-protocol.md#room-notifications; note `name` here where `participantJoined` and `participantPublished` say
/// `id`).
public struct ParticipantNameNotification: Codable, Sendable, Hashable {
    /// The user concerned.
    public var name: String

    /// Creates the notification params.
    public init(name: String) { self.name = name }
}

/// `participantUnpublished` params: the user who stopped publishing, sent to all but that user.
public typealias ParticipantUnpublishedNotification = ParticipantNameNotification

/// `participantLeft` params: the user who left or was evicted, sent to those remaining.
public typealias ParticipantLeftNotification = ParticipantNameNotification
