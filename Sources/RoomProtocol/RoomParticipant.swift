/// A participant as listed in the `joinRoom` result and in `participantPublished`
/// (docs/wire-protocol.md#room-requests): `{"id": "<user>", "streams": [{"id": "webcam"}]}`, where `streams` appears
/// only while the user publishes.
public struct RoomParticipant: Codable, Sendable, Hashable {
    /// One published stream, `{"id": "webcam"}`.
    public struct Stream: Codable, Sendable, Hashable {
        /// The stream id (``RoomNaming/defaultStreamId`` for every Kurento client).
        public var id: String

        /// Creates a stream reference.
        public init(id: String = RoomNaming.defaultStreamId) { self.id = id }
    }

    /// The user name.
    public var id: String
    /// The published streams; `nil` (absent on the wire) when the user does not publish.
    public var streams: [Stream]?

    /// Creates a participant. An empty `streams` is stored as `nil`, so a non-publisher never shows
    /// `"streams": []` on the wire.
    public init(id: String, streams: [Stream] = []) {
        self.id = id
        self.streams = streams.isEmpty ? nil : streams
    }

    /// Whether the participant publishes at least one stream.
    public var isPublishing: Bool { !(streams ?? []).isEmpty }
}
