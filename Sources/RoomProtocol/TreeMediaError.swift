/// `mediaError` params of the Tree protocol (ours; stock Kurento Tree has no such notification,
/// docs/wire-protocol.md#media-errors): `{"treeId", "sinkId"?, "error"}`. The endpoint named (the source when there
/// is no `sinkId`) failed at the media server and was dropped: the tree's owner sets the source again
/// (`setTreeSource`), a sink's owner adds a new sink (`addTreeSink`). A failed source also drops every sink.
public struct TreeMediaError: Codable, Sendable, Hashable {
    /// The tree's id.
    public var treeId: String
    /// The sink that failed; `nil` for the tree's source.
    public var sinkId: String?
    /// What went wrong, in the server's words.
    public var error: String

    /// Creates the params for `endpoint` of tree `treeId`.
    public init(treeId: String, endpoint: TreeEndpoint, error: String) {
        self.treeId = treeId
        sinkId = endpoint.sinkId
        self.error = error
    }

    /// The endpoint: the source when there is no `sinkId`, else that sink.
    public var endpoint: TreeEndpoint { sinkId.map(TreeEndpoint.sink) ?? .source }
}
