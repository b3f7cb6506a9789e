/// `participantJoined` params (docs/wire-protocol.md#room-notifications): `{"id": "<user>"}`, sent to the participants
/// already in the room.
public struct ParticipantJoinedNotification: Codable, Sendable, Hashable {
    /// The user who joined.
    public var id: String

    /// Creates the notification params.
    public init(id: String) { self.id = id }
}
