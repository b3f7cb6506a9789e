import Logging
import SignalingSupport
public import WebSocketTransport
public import JSONRPC

/// A ``/JSONRPC/JSONRPCServer`` listening on a WebSocket port: every accepted connection is served
/// (``/JSONRPC/JSONRPCServer/serve(_:)``) in its own child task until it ends. Made by
/// `JSONRPCServer.listen(on:loop:)`; call ``shutdown(code:reason:timeout:)`` when done, or it serves until the process
/// ends.
///
/// ```swift
/// let server = JSONRPCServer(configuration: .init(conventions: .plain))
/// server.register("echo") { params, _ in params }
/// let listener = try await server.listen(on: .init())          // 127.0.0.1, ephemeral port
/// print(listener.url)                                            // ws://127.0.0.1:41234/
/// ```
public final class JSONRPCWebSocketListener: Sendable {
    /// The JSON-RPC server behind the port.
    public let server: JSONRPCServer
    /// The WebSocket server that accepts the connections.
    public let webSocketServer: WebSocketServer
    private let serving: Task<Void, Never>

    /// The port it listens on (the real one when the configuration asked for port 0).
    public var port: Int { webSocketServer.port }

    /// The URL clients dial, with the root path, e.g. `ws://127.0.0.1:41234/`.
    public var url: String { webSocketServer.url + "/" }

    /// Serves each connection with the server `route` picks from its upgrade request (`server` when `route` is
    /// `nil` or returns `nil`), in SockJS framing when `sockJS` returns options for its upgrade request.
    init(server: JSONRPCServer, webSocketServer: WebSocketServer,
         route: (@Sendable (UpgradeRequest) -> JSONRPCServer?)? = nil,
         sockJS: (@Sendable (UpgradeRequest) -> SockJSOptions?)? = nil) {
        self.server = server
        self.webSocketServer = webSocketServer
        serving = Task {
            await withDiscardingTaskGroup { group in
                for await connection in webSocketServer.connections {
                    let target = connection.request.flatMap { route?($0) } ?? server
                    let adapter = if let options = connection.request.flatMap({ sockJS?($0) }) {
                        WebSocketMessageConnection(connection, sockJS: options)
                    } else {
                        WebSocketMessageConnection(connection)
                    }
                    group.addTask { await target.serve(adapter) }
                }
            }
        }
    }

    /// Stops accepting, closes every connection with 1001 (`code`), cancels the handlers still running, and
    /// returns once every connection's serving has finished, or `timeout` after the call (on the server's
    /// ``/JSONRPC/JSONRPCServer/Configuration/clock``), whichever comes first (docs/architecture.md#shutdown).
    ///
    /// A cancelled handler that does not return is waited for until its ``/JSONRPC/JSONRPCServer/Configuration/handlerTimeout``
    /// at most, and not past `timeout`: a handler still running then is abandoned (it goes on, and whatever it
    /// returns is dropped, its connection being closed), with a warning in the server's log.
    public func shutdown(code: WebSocketCloseCode = .goingAway, reason: String = "server shutting down",
                         timeout: Duration = .seconds(10)) async {
        let clock = server.configuration.clock
        let deadline = clock.now + timeout
        await webSocketServer.shutdown(code: code, reason: reason)
        serving.cancel()
        if case .timedOut = await race(serving, within: deadline - clock.now, on: clock) {
            server.logger.warning("shutdown timeout passed: abandoning the handlers still running",
                                  metadata: ["timeout": "\(timeout)"])
        }
    }
}

extension JSONRPCServer {
    /// Listens for WebSocket connections and serves each one.
    ///
    /// - Parameters:
    ///   - configuration: host, port (0 for an ephemeral one), TLS, upgrade filter and limits. A message above
    ///     ``/WebSocketTransport/ConnectionLimits/maxMessageSize`` (1 MiB by default) closes its connection
    ///     with 1009.
    ///   - loop: the event loop; ``/WebSocketTransport/WebSocketEventLoop/shared`` by default.
    /// - Throws: ``/WebSocketTransport/TransportError/listenFailed(_:)`` when the address cannot be bound.
    public func listen(on configuration: WebSocketServerConfiguration = .init(),
                       loop: WebSocketEventLoop = .shared) async throws -> JSONRPCWebSocketListener {
        JSONRPCWebSocketListener(server: self, webSocketServer: try await WebSocketServer.start(configuration, loop: loop))
    }

    /// Listens like ``listen(on:loop:)``, but serves each connection with the server `route` picks from its
    /// upgrade request (for example by path, as in docs/wire-protocol.md#compatibility: Room on `/room` and Tree on
    /// `/tree`, each with its own router); this server serves the connections `route` returns `nil` for.
    public func listen(on configuration: WebSocketServerConfiguration = .init(), loop: WebSocketEventLoop = .shared,
                       route: @escaping @Sendable (UpgradeRequest) -> JSONRPCServer?) async throws
        -> JSONRPCWebSocketListener
    {
        JSONRPCWebSocketListener(server: self, webSocketServer: try await WebSocketServer.start(configuration, loop: loop),
                                 route: route)
    }

    /// Listens like ``listen(on:loop:route:)``, and serves in SockJS framing (docs/wire-protocol.md#sockjs) each
    /// connection whose upgrade request `sockJS` returns options for.
    package func listen(on configuration: WebSocketServerConfiguration = .init(), loop: WebSocketEventLoop = .shared,
                        sockJS: @escaping @Sendable (UpgradeRequest) -> SockJSOptions?,
                        route: @escaping @Sendable (UpgradeRequest) -> JSONRPCServer?) async throws
        -> JSONRPCWebSocketListener
    {
        JSONRPCWebSocketListener(server: self, webSocketServer: try await WebSocketServer.start(configuration, loop: loop),
                                 route: route, sockJS: sockJS)
    }
}
