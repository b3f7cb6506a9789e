import JSONRPC
import JSONRPCWebSocket
import TestSupport

/// How a test reaches its server: an in-memory ``LocalMessageConnection`` pair, or a real WebSocket on 127.0.0.1
/// through ``JSONRPCServer/listen(on:loop:)``. Tests that take a `Link` argument specify both.
enum Link: String, CaseIterable, Sendable, CustomStringConvertible {
    case memory
    case webSocket

    var description: String { rawValue }

    /// Runs `body` with a raw JSON-text peer connected to `server` over this link, then tears the link down.
    func withRawPeer<T>(to server: JSONRPCServer, _ body: (RawPeer) async throws -> T) async throws -> T {
        switch self {
        case .memory:
            return try await body(RawPeer.connected(to: server))
        case .webSocket:
            return try await withListener(server) { listener in
                let peer = try await RawPeer.connected(to: listener)
                return try await finally(try await body(peer)) { await peer.connection.close(code: 1000, reason: "") }
            }
        }
    }

    /// Runs `body` with a client of `server` over this link, then closes the client and tears the link down.
    func withClient<T>(of server: JSONRPCServer,
                       configuration: JSONRPCClient.Configuration = .init(requestTimeout: .seconds(60)),
                       _ body: (JSONRPCClient) async throws -> T) async throws -> T {
        switch self {
        case .memory:
            let client = JSONRPCClient(transport: LocalTransport.serving(server), configuration: configuration)
            return try await finally(try await body(client)) { await client.close() }
        case .webSocket:
            return try await withListener(server) { listener in
                let client = JSONRPCClient(url: listener.url, configuration: configuration)
                return try await finally(try await body(client)) { await client.close() }
            }
        }
    }
}

/// Runs `body` with `server` listening on 127.0.0.1 (an ephemeral port), then shuts the listener down, within
/// 10 s, whether `body` returned or threw.
func withListener<T>(_ server: JSONRPCServer, _ configuration: WebSocketServerConfiguration = .init(),
                     _ body: (JSONRPCWebSocketListener) async throws -> T) async throws -> T {
    let listener = try await server.listen(on: configuration)
    return try await finally(try await body(listener)) {
        try await withDeadline(.seconds(10), "listener shutdown") { await listener.shutdown() }
    }
}

/// Evaluates `body`, then runs `cleanup` whether it returned or threw; a cleanup error wins only after success.
func finally<T>(_ body: @autoclosure () async throws -> T, _ cleanup: () async throws -> Void) async throws -> T {
    let result: Result<T, any Error>
    do { result = .success(try await body()) } catch { result = .failure(error) }
    try await cleanup()
    return try result.get()
}

extension RawPeer {
    /// A raw peer on a real WebSocket to `listener`: what it sends are the text frames on the wire.
    static func connected(to listener: JSONRPCWebSocketListener) async throws -> RawPeer {
        let webSocket = try await withDeadline(.seconds(10), "WebSocket connect") {
            try await WebSocketConnection.connect(to: listener.url)
        }
        return RawPeer(connection: WebSocketMessageConnection(webSocket))
    }
}
