import TestSupport
import WebSocketTransport

/// The next inbound message of `connection`, within `limit`.
func nextMessage(_ connection: WebSocketConnection, limit: Duration = .seconds(10)) async throws -> WebSocketMessage? {
    try await withDeadline(limit, "next message") {
        var iterator = connection.messages.makeAsyncIterator()
        return try await iterator.next()
    }
}

/// How the connection ended, within `limit`.
func closeInfo(_ connection: WebSocketConnection, limit: Duration = .seconds(10)) async throws -> WebSocketCloseInfo {
    try await withDeadline(limit, "close") { await connection.closeInfo }
}

/// The first connection a server accepts, within `limit`.
func firstConnection(_ server: WebSocketServer, limit: Duration = .seconds(10)) async throws -> WebSocketConnection {
    try await withDeadline(limit, "accepted connection") {
        for await connection in server.connections { return connection }
        throw DeadlineExceeded(what: "server ended", timeout: .zero)
    }
}
