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

/// Sends "ping" from `client`, echoes it from `serverSide` and waits for it back at `client`, within 10 s: a round
/// trip the loop serves while something else keeps it busy (`what` names that in the deadline's message).
func echoPing(from client: WebSocketConnection, via serverSide: WebSocketConnection, while what: String) async throws {
    try client.enqueue(.text("ping"))
    try await withDeadline(.seconds(10), "echo while \(what)") {
        var serverInbound = serverSide.messages.makeAsyncIterator()
        var clientInbound = client.messages.makeAsyncIterator()
        let message = try await serverInbound.next()
        try serverSide.enqueue(message!)
        _ = try await clientInbound.next()
    }
}
