/// `participantPublished` params (docs/wire-protocol.md#room-notifications): `{"id": "<user>", "streams": [{"id":
/// "webcam"}]}`, sent to all but the publisher. Unlike ``RoomParticipant`` in the join result, `streams` is required
/// here.
public struct ParticipantPublishedNotification: Codable, Sendable, Hashable {
    /// The publisher.
    public var id: String
    /// The streams now published.
    public var streams: [RoomParticipant.Stream]

    /// Creates the notification params.
    public init(id: String, streams: [RoomParticipant.Stream] = [.init()]) {
        self.id = id
        self.streams = streams
    }
}
