/// One trickled ICE candidate of a tree endpoint: the params of the `addIceCandidate` request (client → server)
/// and of the `iceCandidate` notification (server → client), which carry the same fields (docs/wire-protocol.md#tree).
/// `sinkId` is absent for the source; ``endpoint`` reads it.
public struct TreeIceCandidate: Codable, Sendable, Hashable {
    /// The tree's id.
    public var treeId: String
    /// The sink the candidate belongs to; `nil` for the tree's source.
    public var sinkId: String?
    /// The candidate line (`candidate:…`).
    public var candidate: String
    /// The media stream identification tag.
    public var sdpMid: String
    /// The index of the m-line the candidate belongs to.
    public var sdpMLineIndex: Int

    /// Creates a candidate message for `endpoint` of tree `treeId`.
    public init(treeId: String, endpoint: TreeEndpoint, candidate: String, sdpMid: String, sdpMLineIndex: Int) {
        self.treeId = treeId
        sinkId = endpoint.sinkId
        self.candidate = candidate
        self.sdpMid = sdpMid
        self.sdpMLineIndex = sdpMLineIndex
    }

    /// The endpoint: the source when there is no `sinkId`, else that sink.
    public var endpoint: TreeEndpoint { sinkId.map(TreeEndpoint.sink) ?? .source }
}
