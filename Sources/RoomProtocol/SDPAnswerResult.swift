/// The result of `publishVideo` and `receiveVideoFrom` (PROTOCOL §3): `{"sdpAnswer": "..."}`.
public struct SDPAnswerResult: Codable, Sendable, Hashable {
    /// The server's SDP answer.
    public var sdpAnswer: String

    /// Creates an answer result.
    public init(sdpAnswer: String) { self.sdpAnswer = sdpAnswer }
}
