import RoomProtocol

extension MediaEndpointID {
    /// The owner name of a tree's source. Room user names never contain `_` (docs/wire-protocol.md#room-naming), so
    /// tree endpoints never collide with a room's in a shared ``MediaBackend``.
    static let treeSourceOwner = "_source"

    /// The media endpoint of tree `treeId`'s source: the publisher endpoint of owner `_source` in a "room"
    /// named after the tree.
    public static func treeSource(_ treeId: String) -> MediaEndpointID {
        MediaEndpointID(room: treeId, owner: treeSourceOwner, endpoint: .publisher)
    }

    /// The media endpoint of sink `sinkId` of tree `treeId`: a subscription to the source, owned by `_sink_<id>`.
    public static func treeSink(_ sinkId: String, of treeId: String) -> MediaEndpointID {
        MediaEndpointID(room: treeId, owner: "_sink_" + sinkId, endpoint: .subscriber(to: treeSourceOwner))
    }

    /// The media endpoint of `endpoint` of tree `treeId`.
    static func tree(_ treeId: String, _ endpoint: TreeEndpoint) -> MediaEndpointID {
        switch endpoint {
        case .source: treeSource(treeId)
        case .sink(let sinkId): treeSink(sinkId, of: treeId)
        }
    }
}
