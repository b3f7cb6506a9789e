public import JSONRPC
public import RoomProtocol
public import SDP

/// The completion-closure faces of ``connect()`` and ``disconnect()`` (`connect(completion:)`,
/// `disconnect(completion:)`) come with ``/JSONRPC/SignalingClient``.
extension TreeClient: SignalingClient {}

/// The completion-closure face: each method starts the async call and runs `completion` exactly once, on no
/// particular thread, with the result or the error (``/RoomProtocol/TreeError`` or ``/JSONRPC/RPCError``). Unlike
/// NBMTreeClient's `setSource:`, failures are reported too.
extension TreeClient {
    /// Completion-closure face of ``createTree(id:)``: the result is the tree's id.
    public func createTree(id: String? = nil, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
        complete(completion) { try await self.createTree(id: id) }
    }

    /// Completion-closure face of ``releaseTree(_:)``.
    public func releaseTree(_ tree: String, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        complete(completion) { try await self.releaseTree(tree) }
    }

    /// Completion-closure face of ``setSource(sdpOffer:tree:)``: the result is the server's SDP answer.
    public func setSource(sdpOffer: String, tree: String,
                          completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
        complete(completion) { try await self.setSource(sdpOffer: sdpOffer, tree: tree) }
    }

    /// Completion-closure face of ``removeSource(tree:)``.
    public func removeSource(tree: String, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        complete(completion) { try await self.removeSource(tree: tree) }
    }

    /// Completion-closure face of ``addSink(sdpOffer:tree:)``.
    public func addSink(sdpOffer: String, tree: String,
                        completion: @escaping @Sendable (Result<TreeSink, any Error>) -> Void) {
        complete(completion) { try await self.addSink(sdpOffer: sdpOffer, tree: tree) }
    }

    /// Completion-closure face of ``removeSink(_:tree:)``.
    public func removeSink(_ sinkId: String, tree: String,
                           completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        complete(completion) { try await self.removeSink(sinkId, tree: tree) }
    }

    /// Completion-closure face of ``sendICECandidate(_:for:tree:)``.
    public func sendICECandidate(_ candidate: IceCandidate, for endpoint: TreeEndpoint, tree: String,
                                 completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        complete(completion) { try await self.sendICECandidate(candidate, for: endpoint, tree: tree) }
    }
}
