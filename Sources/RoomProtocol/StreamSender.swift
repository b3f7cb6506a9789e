/// The `sender` of `receiveVideoFrom` and `unsubscribeFromVideo`: `"<user>_<streamId>"`, e.g. `alice_webcam`.
public struct StreamSender: Sendable, Hashable, CustomStringConvertible {
    /// The publishing user.
    public var user: String
    /// The stream (``RoomNaming/defaultStreamId`` for Kurento clients).
    public var streamId: String

    /// Creates a sender reference.
    public init(user: String, streamId: String = RoomNaming.defaultStreamId) {
        self.user = user
        self.streamId = streamId
    }

    /// Parses a wire `sender` the way a Kurento server does (docs/wire-protocol.md#room-naming): the user is the part
    /// before the first `_`, the stream the rest. `nil` when there is no `_` (a Kurento server then answers -1).
    public init?(wireValue: String) {
        guard let separator = wireValue.firstIndex(of: RoomNaming.senderSeparator) else { return nil }
        user = String(wireValue[..<separator])
        streamId = String(wireValue[wireValue.index(after: separator)...])
    }

    /// The wire form, `"<user>_<streamId>"`.
    public var wireValue: String { "\(user)\(RoomNaming.senderSeparator)\(streamId)" }

    public var description: String { wireValue }
}
