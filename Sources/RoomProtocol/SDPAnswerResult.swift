/// The result of `publishVideo` and `receiveVideoFrom` (docs/wire-protocol.md#room-requests): `{"sdpAnswer": "..."}`.
public struct SDPAnswerResult: Codable, Sendable, Hashable {
    /// The server's SDP answer.
    public var sdpAnswer: String

    /// Creates an answer result.
    public init(sdpAnswer: String) { self.sdpAnswer = sdpAnswer }
}
