/// The result of `setTreeSource` (docs/wire-protocol.md#tree): `{"answerSdp": "..."}` (the code's key; the doc text
/// says `sdpAnswer`).
public struct TreeAnswerResult: Codable, Sendable, Hashable {
    /// The server's SDP answer.
    public var answerSdp: String

    /// Creates the result.
    public init(answerSdp: String) { self.answerSdp = answerSdp }
}

/// The result of `addTreeSink` (docs/wire-protocol.md#tree): the new sink's id and the server's SDP answer.
public struct TreeSinkResult: Codable, Sendable, Hashable {
    /// The sink's id, for `removeTreeSink` and `addIceCandidate`.
    public var sinkId: String
    /// The server's SDP answer.
    public var answerSdp: String

    /// Creates the result.
    public init(sinkId: String, answerSdp: String) {
        self.sinkId = sinkId
        self.answerSdp = answerSdp
    }
}

/// The `createTree` result without a given id: the server's id, wrapped as `value`
/// (docs/wire-protocol.md#kurento-conventions).
struct CreatedTreeResult: Codable, Sendable, Hashable {
    var value: String
}
