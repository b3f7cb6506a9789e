import JSONRPC
import JSONRPCWebSocket
import Logging
import RoomClusterCore
import SignalingSupport

extension RoomServer {
    /// The paths Room is served on (`/room`, as Kurento's room server, and `/`).
    public static let paths: Set<String> = ["/room", "/"]

    /// Starts a server listening on ``Configuration/host`` and ``Configuration/port`` (0: a free port).
    /// Tree is served on ``treePaths`` (``treeURL``), SockJS's WebSocket transport under Room's and Tree's paths
    /// (``sockJSPrefixes``, docs/wire-protocol.md#sockjs), the admin subscription on ``adminPath`` (with the admin token,
    /// docs/operations.md#admin-subscription). Upgrades to other paths are refused with HTTP 404, then
    /// ``Configuration/upgradeFilter`` answers on the service thread, then ``Configuration/authorizeUpgrade``
    /// decides, off the service thread (both on every path but ``adminPath``, which the admin token guards). Plain
    /// HTTP requests on the port get the application's routes (``OperationsConfiguration/routes``) and the
    /// operations routes (``httpResponse(to:)``, docs/operations.md#endpoints); with ``OperationsConfiguration/listener``
    /// a second port serves the probes and metrics alone.
    /// - Throws: `TransportError.listenFailed` when an address cannot be bound or the TLS files are unusable;
    ///   ``OperationsConfiguration/AdminTokenTooShort`` for an admin token under 16 bytes;
    ///   ``OperationsConfiguration/RouteRefused`` for a route on a path of the server's own, or malformed.
    public static func start(_ configuration: Configuration) async throws -> RoomServer {
        try configuration.operations.checkAdminToken()
        try configuration.operations.checkRoutes()
        let listener = RoomListener()
        let server = RoomServer(configuration: configuration, listener: listener)
        var webSocket = WebSocketServerConfiguration()
        webSocket.host = configuration.host
        webSocket.port = configuration.port
        webSocket.tls = configuration.tls
        webSocket.limits.maxMessageSize = configuration.maxMessageSize
        webSocket.maxConnectionsPerAddress = configuration.limits.maxConnectionsPerIP
        webSocket.handshakeTimeout = configuration.limits.handshakeTimeout
        webSocket.limits.rttProbeInterval = configuration.operations.rttProbeInterval
        // The dashboard's login form posts the admin token (docs/operations.md#the-admin-token); the application's
        // POST routes their bodies.
        webSocket.maxHTTPBodySize = maxHTTPBodySize(configuration.operations)
        webSocket.httpHandlerTimeout = configuration.operations.routeTimeout
        webSocket.httpHandler = { [weak server] request in
            await server?.httpResponse(to: request) ?? RoomServer.text(503, "shutting down")
        }
        let embedderFilter = configuration.upgradeFilter
        webSocket.upgradeFilter = { [weak server] request in
            if request.path == adminPath {
                // docs/operations.md#admin-subscription: the token in `Authorization: Bearer`, or the dashboard's
                // session cookie (browsers cannot set headers on a WebSocket). Off (404) without a configured token.
                guard let server, server.configuration.operations.adminToken != nil else {
                    return .reject(status: 404, reason: "the admin subscription is off")
                }
                return server.adminUpgradeDecision(request)
            }
            guard servesWebSocket(on: request.path) else {
                return .reject(status: 404, reason: "Room is served on /room, Tree on /tree and /kurento-tree")
            }
            // The server's own checks first (the per-address cap ran before this closure), then the embedder's.
            return embedderFilter?(request) ?? .accept
        }
        if let authorize = configuration.authorizeUpgrade {
            webSocket.authorizeUpgrade = { request in
                request.path == adminPath ? UpgradeDecision.accept : await authorize(request)
            }
        }
        // docs/wire-protocol.md#compatibility: Tree has its own path and router; so has the admin subscription.
        let tree = server.treeRPC, admin = server.adminRPC
        try await server.startCluster()
        // docs/wire-protocol.md#sockjs: SockJS session URLs get SockJS framing.
        let sockJS = { @Sendable [weak server] (request: UpgradeRequest) in server?.sockJSOptions(for: request.path) }
        listener.attach(try await server.rpc.listen(on: webSocket, sockJS: sockJS) { request in
            switch request.path {
            case let path where servesTree(on: path): tree
            case adminPath: admin
            default: nil
            }
        })
        do {
            try await server.startOperationsListener()
        } catch {
            await listener.shutdown(timeout: configuration.operations.shutdownTimeout)
            await server.cluster?.stop()
            throw error
        }
        configuration.logger.info("room server listening", metadata: [
            "url": "\(server.url)", "tree": "\(server.treeURL)",
            "address": "\(listener.webSocketServer?.address ?? configuration.host)",
        ])
        return server
    }

    /// The URL a local client dials, e.g. `ws://127.0.0.1:41234/room`; empty for a server made with
    /// ``init(configuration:)``, which listens on nothing.
    public var url: String {
        guard let base = listener?.baseURL, !base.isEmpty else { return "" }
        return base + "/room"
    }

    /// Reads the certificate and key files of ``Configuration/tls`` again and serves them from the next TLS
    /// handshake on, without a restart; open connections keep theirs (`room-server` does it on SIGHUP,
    /// docs/operations.md#tls). When this throws, the server goes on serving the certificate it had.
    /// - Throws: `TransportError.tlsFailure` with the reason: no TLS configured, the server stopped, a file
    ///   unreadable or not PEM, a key that does not belong to the certificate or of another type than before.
    public func reloadTLSCertificate() async throws {
        guard let server = listener?.webSocketServer else {
            throw TransportError.tlsFailure("the room server is not listening")
        }
        try await server.reloadCertificate()
    }

    /// Serves until ``shutdown()`` is called or the calling task is cancelled, which shuts the server down: the
    /// whole ``shutdown()`` (readiness, media, the cluster), not only the listener.
    public func run() async {
        guard let listener else { return }
        await withTaskCancellationHandler {
            await listener.waitUntilStopped()
        } onCancel: {
            Task { [self] in await shutdown() }
        }
    }

    /// Shuts down gracefully: stops listening, closes every session's socket with 1001 (clients reconnect to
    /// the next server), cancels the handlers still running and waits for them, releases the media and leaves the
    /// cluster. Idempotent.
    /// With ``OperationsConfiguration/drainPeriod``, the first call keeps serving that long with `/readyz`
    /// answering 503 "shutting down" before anything closes; a second call meanwhile ends the drain at once.
    /// It always returns within ``OperationsConfiguration/shutdownTimeout`` after the drain, whatever handlers or
    /// the media backend do: what is still running then is abandoned, with a warning in the log
    /// (docs/architecture.md#shutdown).
    public func shutdown() async {
        let period = configuration.operations.drainPeriod, clock = configuration.clock, logger = logger
        let drains = listener != nil && period > .zero
        await operations.beginShutdown {
            guard drains else { return }
            logger.info("draining before shutdown", metadata: ["period": "\(period)"])
            try? await clock.sleep(for: period)
        }
        let timeout = configuration.operations.shutdownTimeout
        let stopping = Task { [self] in
            adminFeed.stop()
            await listener?.shutdown(timeout: timeout)
            await operations.detachListener()?.shutdown()
            await releaseAllMedia()
            if let cluster {
                await clusterView?.stop()
                await cluster.stop()
                operations.setCluster(.left)
            }
        }
        if case .timedOut = await race(stopping, within: timeout, on: clock) {
            logger.warning("shutdown timeout passed: abandoning what is still running", metadata: ["timeout": "\(timeout)"])
        }
        logger.info("room server stopped")
    }

    /// Releases every endpoint and media scope this server holds, then lets the backend go (a shutdown: no media
    /// object outlives the server that made it).
    func releaseAllMedia() async {
        let (roomEndpoints, rooms) = registry.takeAllMedia()
        let (treeEndpoints, trees) = treeRegistry.takeAllMedia()
        for endpoint in roomEndpoints + treeEndpoints { await media.release(endpoint) }
        for room in rooms { await media.release(scope: .room(room)) }
        for tree in trees { await media.release(scope: .tree(tree)) }
        await media.shutdown()
    }
}
