import JSONRPC
public import RoomProtocol
public import SDP

extension TreeClient {
    /// Opens the connection, unless connected already. Calls connect on their own, so this is optional.
    /// - Throws: ``/JSONRPC/RPCError/connectionClosed(_:)`` with the transport's reason.
    public func connect() async throws {
        try await rpc.connect()
    }

    /// Closes the connection (a user-initiated close). Every pending call completes, exactly once, with
    /// ``/JSONRPC/RPCError/connectionClosed(_:)``. Our server then releases the trees this client created and
    /// removes its sinks once the session's reconnection window has passed.
    public func disconnect() async {
        await rpc.close(code: 1000, reason: "client disconnected")
    }

    /// Creates a tree (`createTree`) and returns its id: `id` itself, or the id the server generated when `id` is
    /// `nil` (NBMTreeClient dropped it). This client's session owns the tree.
    /// - Throws: ``/RoomProtocol/TreeError`` 2 when the id exists.
    @discardableResult
    public func createTree(id: String? = nil) async throws -> String {
        try await request(.createTree(CreateTreeParams(treeId: id)), requestedId: id != nil) { result in
            guard case .created(let generated) = result else { return id ?? "" }
            return generated
        }
    }

    /// Releases `tree` with its source and sinks (`releaseTree`; the tree's owner only).
    public func releaseTree(_ tree: String) async throws {
        try await request(.releaseTree(TreeIDParams(treeId: tree))) { _ in }
    }

    /// Sets the source of `tree` (`setTreeSource`; the tree's owner only) and returns the server's SDP answer.
    /// Candidates for the source then arrive as ``TreeEvent/iceCandidate(_:tree:endpoint:)`` with
    /// ``/RoomProtocol/TreeEndpoint/source``; send yours with ``sendICECandidate(_:for:tree:)`` once this returned.
    /// - Throws: ``/RoomProtocol/TreeError`` 2 for an unknown tree or one with a source already.
    public func setSource(sdpOffer: String, tree: String) async throws -> String {
        try await request(.setTreeSource(TreeOfferParams(treeId: tree, offerSdp: sdpOffer))) { result in
            guard case .answer(let answer) = result else { return "" }
            return answer
        }
    }

    /// Removes the source of `tree` (`removeTreeSource`); its sinks stay and receive the next source.
    public func removeSource(tree: String) async throws {
        try await request(.removeTreeSource(TreeIDParams(treeId: tree))) { _ in }
    }

    /// Adds a sink to `tree` (`addTreeSink`) and returns its id and the server's SDP answer.
    /// - Throws: ``/RoomProtocol/TreeError`` 2 for an unknown tree or one without a source.
    public func addSink(sdpOffer: String, tree: String) async throws -> TreeSink {
        try await request(.addTreeSink(TreeOfferParams(treeId: tree, offerSdp: sdpOffer))) { result in
            guard case .sink(let sink) = result else { return TreeSink(id: "", sdpAnswer: "") }
            return TreeSink(id: sink.sinkId, sdpAnswer: sink.answerSdp)
        }
    }

    /// Removes sink `sinkId` of `tree` (`removeTreeSink`), looked up by the sink's id (NBMTreeClient used the
    /// tree's).
    public func removeSink(_ sinkId: String, tree: String) async throws {
        try await request(.removeTreeSink(RemoveTreeSinkParams(treeId: tree, sinkId: sinkId))) { _ in }
    }

    /// Trickles one local ICE candidate (`addIceCandidate`) for the source or a sink of `tree`. A missing
    /// `sdpMid` is sent as `""` and a missing `sdpMLineIndex` as 0.
    public func sendICECandidate(_ candidate: IceCandidate, for endpoint: TreeEndpoint, tree: String) async throws {
        let message = TreeIceCandidate(treeId: tree, endpoint: endpoint, candidate: candidate.candidate,
                                       sdpMid: candidate.sdpMid ?? "", sdpMLineIndex: candidate.sdpMLineIndex ?? 0)
        try await request(.addIceCandidate(message)) { _ in }
    }

    /// Sends `request` and hands its decoded result to `read`; Tree codes become ``/RoomProtocol/TreeError``.
    @discardableResult
    func request<T: Sendable>(_ request: TreeRequest, requestedId: Bool = false,
                              read: @escaping @Sendable (TreeResult) -> T) async throws -> T {
        let method = request.method
        do {
            return try await rpc.call(method.rawValue, params: request.params) { json in
                read(try TreeResult(method: method, result: json, requestedId: requestedId))
            }
        } catch let error as RPCError {
            throw TreeError(error) ?? error
        }
    }
}
