/// The params of `createTree` (docs/wire-protocol.md#tree): the id to use, or none for a server-generated one.
public struct CreateTreeParams: Codable, Sendable, Hashable {
    /// The tree's id; `nil` lets the server choose it (and return it as `value`).
    public var treeId: String?

    /// Creates the params.
    public init(treeId: String? = nil) { self.treeId = treeId }
}

/// The params of `releaseTree` and `removeTreeSource`: the tree.
public struct TreeIDParams: Codable, Sendable, Hashable {
    /// The tree's id.
    public var treeId: String

    /// Creates the params.
    public init(treeId: String) { self.treeId = treeId }
}

/// The params of `setTreeSource` and `addTreeSink`: the tree and the client's SDP offer.
public struct TreeOfferParams: Codable, Sendable, Hashable {
    /// The tree's id.
    public var treeId: String
    /// The client's SDP offer (send-only for a source, receive-only for a sink).
    public var offerSdp: String

    /// Creates the params.
    public init(treeId: String, offerSdp: String) {
        self.treeId = treeId
        self.offerSdp = offerSdp
    }
}

/// The params of `removeTreeSink`.
public struct RemoveTreeSinkParams: Codable, Sendable, Hashable {
    /// The tree's id.
    public var treeId: String
    /// The sink, as `addTreeSink` returned it.
    public var sinkId: String

    /// Creates the params.
    public init(treeId: String, sinkId: String) {
        self.treeId = treeId
        self.sinkId = sinkId
    }
}
