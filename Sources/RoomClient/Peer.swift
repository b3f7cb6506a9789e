import RoomProtocol

/// A participant of the room, as the ``RoomClient`` knows it from the join result and the notifications
/// since (the NBMPeer counterpart, docs/wire-protocol.md#counterparts). Equal peers have the same identifier and
/// streams.
public struct Peer: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// The participant's user name.
    public var identifier: String
    /// The ids of the streams the participant publishes (`webcam` for every Kurento client); empty when it does
    /// not publish.
    public var streams: [String]

    /// Creates a peer.
    public init(identifier: String, streams: [String] = []) {
        self.identifier = identifier
        self.streams = streams
    }

    /// Creates the peer a join result lists.
    init(_ participant: RoomParticipant) {
        self.init(identifier: participant.id, streams: (participant.streams ?? []).map(\.id))
    }

    /// The identifier, for `Identifiable`.
    public var id: String { identifier }

    /// Whether the participant publishes at least one stream.
    public var isPublishing: Bool { !streams.isEmpty }

    /// Whether the participant publishes the stream `streamId`.
    public func hasStream(_ streamId: String) -> Bool { streams.contains(streamId) }

    /// Adds `streamId` unless present.
    mutating func addStream(_ streamId: String) {
        if !hasStream(streamId) { streams.append(streamId) }
    }

    public var description: String {
        streams.isEmpty ? identifier : "\(identifier) [\(streams.joined(separator: ", "))]"
    }
}
