import CoreMetrics
public import JSONRPC
import JSONRPCWebSocket
import Logging
import RoomProtocol

/// Kurento Tree (docs/wire-protocol.md#tree) on its own path, ``treePath``, with its own JSON-RPC router and sessions
/// (docs/wire-protocol.md#compatibility: Room and Tree both use the notification name `iceCandidate`, with different
/// params). The media comes from the same ``MediaBackend`` (see ``MediaEndpointID/treeSource(_:)``). Unknown methods
/// get -32601, bad params -32602 naming the param, and refusals Tree error 2 (``/RoomProtocol/TreeError``).
extension RoomServer {
    /// The path Tree is served on (``treeURL``).
    public static let treePath = "/tree"
    /// Every path Tree is served on as a plain WebSocket: ``treePath`` and `/kurento-tree`, the stock Tree server's
    /// path (docs/wire-protocol.md#stock-kurento). Under each, SockJS too (``sockJSPrefixes``): KurentoTree.js
    /// connects through SockJS, `KurentoTreeClient.java` through the raw `/kurento-tree/websocket`
    /// (docs/wire-protocol.md#sockjs).
    public static let treePaths: Set<String> = [treePath, "/kurento-tree"]

    /// The Tree URL a local client dials, e.g. `ws://127.0.0.1:41234/tree`; empty for a server made with
    /// ``init(configuration:)``.
    public var treeURL: String {
        guard let base = listener?.baseURL, !base.isEmpty else { return "" }
        return base + Self.treePath
    }

    /// Serves one Tree connection until it ends (what ``start(_:)`` does for upgrades to ``treePaths``).
    public func serveTree(_ connection: any MessageConnection) async {
        await treeRPC.serve(connection)
    }

    /// The trees, by id: whether the source is set, and the sinks.
    public var trees: [String: TreeState] { treeRegistry.snapshot }

    /// Registers the Tree methods on the Tree router; an ended session's trees are released and its sinks removed,
    /// and a resumed session gets the notifications that waited for it (docs/architecture.md#server-sessions).
    func registerTreeMethods() {
        for method in TreeMethod.allCases {
            treeRPC.register(method.rawValue, placement: .connectionExecutor) { [weak self] params, context in
                guard let self else { throw RPCErrorObject.internalError("the room server is gone") }
                return try await self.dispatch(method, params: params, context: context)
            }
        }
        treeRPC.whenSessionEnds { [weak self] session in
            guard let self else { return }
            self.rateLimiter.forget(session.id)
            let (released, trees) = self.treeRegistry.endSession(session)
            Task {
                for endpoint in released { await self.media.release(endpoint) }
                for tree in trees { await self.media.release(scope: .tree(tree)) }
            }
        }
        treeRPC.whenSessionResumesBeforeReply { [weak self] session in
            self?.treeRegistry.outbox(of: session)?.flush()
        }
    }

    /// Decodes and runs one Tree request.
    private func dispatch(_ method: TreeMethod, params: JSONValue?, context: RPCRequestContext) async throws
        -> JSONValue?
    {
        switch rateLimiter.admit(context.session.id) {
        case .allow: break
        case .refuse: throw Self.rateLimited
        case .refuseAndClose(let first):
            if first { rateLimitCloses?.increment() }
            if let id = context.id { context.session.closeAfterReply(to: id, code: 1008, reason: "rate limited") }
            throw Self.rateLimited
        }
        let request: TreeRequest
        do {
            request = try TreeRequest(method: method, params: params)
        } catch {
            throw error.invalidParams
        }
        do {
            return try await handle(request, context: context)
        } catch let error as TreeError {
            logger.debug("tree request refused", metadata: [
                "method": "\(method.rawValue)", "session": .string(context.session.redactedID), "error": "\(error)",
            ])
            throw error.errorObject
        } catch let error as RoomError {
            // From the media backend: a Tree server reports every refusal as TreeException.
            throw TreeError(.treeException, message: error.message).errorObject
        }
    }

    private func handle(_ request: TreeRequest, context: RPCRequestContext) async throws -> JSONValue? {
        let session = context.session
        switch request {
        case .createTree(let params):
            if let id = params.treeId { try await authorizeTreeId(id, session: session) }
            // What changes the trees at once is claimed first (docs/architecture.md#handler-deadlines).
            try claim(context)
            let id = try treeRegistry.create(params.treeId, session: session)
            logger.info("tree created", metadata: ["tree": "\(id)", "session": .string(session.redactedID)])
            // docs/wire-protocol.md#tree: {} when the id was given, the new id (wrapped as value) otherwise. (No
            // ternary: JSONValue is ExpressibleByNilLiteral, so `nil` there would be a JSON null.)
            if params.treeId == nil { return TreeResult.created(treeId: id).json }
        case .releaseTree(let params):
            try claim(context)
            for endpoint in try treeRegistry.release(params.treeId, session: session) { await media.release(endpoint) }
            await media.release(scope: .tree(params.treeId))
        case .setTreeSource(let params):
            try treeRegistry.beginSource(params.treeId, session: session)
            let answer = try await createTreeEndpoint(
                .source, of: params.treeId, context: context,
                abandon: { self.treeRegistry.abandonSource(params.treeId) },
                finish: { self.treeRegistry.finishSource(params.treeId, queueing: $0, to: session) }
            ) {
                try await self.media.createPublisher(.treeSource(params.treeId), offer: params.offerSdp, loopback: false)
            }
            return TreeResult.answer(answer).json
        case .removeTreeSource(let params):
            try claim(context)
            await media.release(try treeRegistry.removeSource(params.treeId, session: session))
        case .addTreeSink(let params):
            let sinkId = try treeRegistry.beginSink(params.treeId, session: session)
            let answer = try await createTreeEndpoint(
                .sink(sinkId), of: params.treeId, context: context,
                abandon: { self.treeRegistry.abandonSink(sinkId, of: params.treeId) },
                finish: { self.treeRegistry.finishSink(sinkId, of: params.treeId, queueing: $0, to: session) }
            ) {
                try await self.media.createSubscriber(.treeSink(sinkId, of: params.treeId), offer: params.offerSdp)
            }
            return TreeResult.sink(TreeSinkResult(sinkId: sinkId, answerSdp: answer)).json
        case .removeTreeSink(let params):
            try claim(context)
            await media.release(try treeRegistry.removeSink(params.sinkId, of: params.treeId, session: session))
        case .addIceCandidate(let candidate):
            let endpoint = try treeRegistry.candidateTarget(candidate.endpoint, of: candidate.treeId, session: session)
            try await Self.media {
                try await self.media.addCandidate(
                    MediaCandidate(candidate: candidate.candidate, sdpMid: candidate.sdpMid,
                                   sdpMLineIndex: candidate.sdpMLineIndex), to: endpoint)
            }
        }
        return TreeResult.empty.json
    }

    /// A `createTree` that names its tree (docs/wire-protocol.md#tree): the id must follow the naming rules (-32602),
    /// and ``Configuration/authorizeTreeId`` must allow it (Tree error 2; without the hook, always refused).
    private func authorizeTreeId(_ id: String, session: ServerSession) async throws {
        guard !id.isEmpty else { throw RPCErrorObject.invalidParams("createTree params: 'treeId' must not be empty") }
        if id.utf8.count > RoomNaming.maxNameBytes {
            throw RPCErrorObject.invalidParams(
                "createTree params: 'treeId' of \(id.utf8.count) bytes exceeds \(RoomNaming.maxNameBytes)")
        }
        do {
            try RoomNaming.checkCharacters(id, of: "'treeId'")
        } catch {
            throw RPCErrorObject.invalidParams("createTree params: \(error.message)")
        }
        guard let authorize = configuration.authorizeTreeId else {
            throw TreeError(.treeException, message: "Tree id '\(id)' refused: tree ids are chosen by the server here "
                            + "(send createTree without a treeId)")
        }
        let upgrade = (session.connection as? WebSocketMessageConnection)?.webSocket.request
        let request = TreeIdRequest(treeId: id, upgrade: upgrade)
        guard await offLoop({ await authorize(request) }) else {
            throw TreeError(.treeException, message: "Tree id '\(id)' is not allowed for this session")
        }
    }

    /// Creates a reserved tree endpoint at the backend, then sends its server candidates to the caller before the
    /// answer goes out (as Kurento may): `finish` marks the endpoint ready and queues them in the caller's outbox,
    /// where they wait if the caller is in its reconnection window. When the tree or sink went away meanwhile, or
    /// the caller was told the request failed (docs/architecture.md#handler-deadlines), the endpoint is released.
    private func createTreeEndpoint(
        _ endpoint: TreeEndpoint, of treeId: String, context: RPCRequestContext,
        abandon: () -> Void, finish: ([TreeNotification]) -> Bool, _ backendCall: () async throws -> MediaAnswer
    ) async throws -> String {
        let answer: MediaAnswer
        do {
            answer = try await Self.media(backendCall)
        } catch {
            abandon()
            throw error
        }
        let notifications = answer.candidates.map { candidate in
            TreeNotification.iceCandidate(TreeIceCandidate(
                treeId: treeId, endpoint: endpoint, candidate: candidate.candidate, sdpMid: candidate.sdpMid,
                sdpMLineIndex: candidate.sdpMLineIndex))
        }
        guard context.claimCompletion() else {
            abandon()
            await media.release(.tree(treeId, endpoint))
            throw RoomRegistry.abandoned
        }
        guard finish(notifications) else {
            await media.release(.tree(treeId, endpoint))
            throw TreeError(.treeException, message: "Tree '\(treeId)': the \(endpoint) ended while it was created")
        }
        treeRegistry.outbox(of: context.session)?.flush()
        return answer.sdp
    }
}
