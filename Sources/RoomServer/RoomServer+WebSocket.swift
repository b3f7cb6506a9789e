import JSONRPC
import RoomCluster
import Logging
import WebSocketTransport

extension RoomServer {
    /// The paths Room is served on (`/room`, as Kurento's room server, and `/`).
    public static let paths: Set<String> = ["/room", "/"]

    /// Starts a server listening on ``Configuration/host`` and ``Configuration/port`` (0: a free port).
    /// Tree is served on ``treePath`` (``treeURL``). Upgrades to other paths are refused with HTTP 404, then
    /// ``Configuration/authorizeUpgrade`` decides, off the service thread.
    /// - Throws: `TransportError.listenFailed` when the address cannot be bound or the TLS files are unusable.
    public static func start(_ configuration: Configuration) async throws -> RoomServer {
        let listener = RoomListener()
        let server = RoomServer(configuration: configuration, listener: listener)
        var webSocket = WebSocketServerConfiguration()
        webSocket.host = configuration.host
        webSocket.port = configuration.port
        webSocket.tls = configuration.tls
        webSocket.limits.maxMessageSize = configuration.maxMessageSize
        webSocket.maxConnectionsPerAddress = configuration.limits.maxConnectionsPerIP
        webSocket.handshakeTimeout = configuration.limits.handshakeTimeout
        webSocket.upgradeFilter = { request in
            guard paths.contains(request.path) || request.path == treePath else {
                return .reject(status: 404, reason: "Room is served on /room, Tree on /tree")
            }
            return .accept
        }
        webSocket.authorizeUpgrade = configuration.authorizeUpgrade
        // docs/wire-protocol.md#compatibility: Tree has its own path and router.
        let tree = server.treeRPC
        try await server.startCluster()
        listener.attach(try await server.rpc.listen(on: webSocket) { $0.path == treePath ? tree : nil })
        configuration.logger.info("room server listening", metadata: ["url": "\(server.url)"])
        return server
    }

    /// The URL a local client dials, e.g. `ws://127.0.0.1:41234/room`; empty for a server made with
    /// ``init(configuration:)``, which listens on nothing.
    public var url: String {
        guard let base = listener?.baseURL, !base.isEmpty else { return "" }
        return base + "/room"
    }

    /// Serves until ``shutdown()`` is called or the calling task is cancelled, which shuts the server down.
    public func run() async {
        guard let listener else { return }
        await withTaskCancellationHandler {
            await listener.waitUntilStopped()
        } onCancel: {
            Task { await listener.shutdown() }
        }
    }

    /// Shuts down gracefully: stops listening, closes every session's socket with 1001 (clients reconnect to
    /// the next server) and waits for the handlers still running. Idempotent.
    public func shutdown() async {
        await listener?.shutdown()
        await cluster?.stop()
        logger.info("room server stopped")
    }
}
