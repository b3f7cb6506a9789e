/// The `joinRoom` result as it travels (docs/wire-protocol.md#kurento-conventions and
/// docs/wire-protocol.md#room-requests): Kurento wraps the participant list as `{"value": [...]}` (plus the injected
/// `sessionId`, which decoding ignores).
public struct JoinRoomResult: Codable, Sendable, Hashable {
    /// The participants already in the room, without the caller.
    public var value: [RoomParticipant]

    /// Creates a join result.
    public init(_ participants: [RoomParticipant]) { value = participants }
}
