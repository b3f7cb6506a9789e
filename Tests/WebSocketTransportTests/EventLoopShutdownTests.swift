import TestSupport
import Testing
@testable import WebSocketTransport

/// After `shutdown()` every entry point of a loop fails at once instead of waiting for a service thread that is
/// gone (docs/libwebsockets.md#service-loop).
@Suite struct EventLoopShutdownTests {
    /// A loop that has been shut down.
    static func shutDownLoop() async throws -> WebSocketEventLoop {
        let loop = try WebSocketEventLoop()
        await loop.shutdown()
        return loop
    }

    @Test func connectAfterShutdownThrowsEventLoopShutDown() async throws {
        // Given a loop that has been shut down
        let loop = try await Self.shutDownLoop()

        // When a client connects through it
        // Then the connect fails at once with eventLoopShutDown
        await #expect(throws: TransportError.eventLoopShutDown) {
            try await withDeadline(.seconds(2), "connect on a shut-down loop") {
                _ = try await WebSocketConnection.connect(to: "ws://127.0.0.1:9/never", loop: loop)
            }
        }
    }

    @Test func serverStartAfterShutdownThrowsEventLoopShutDown() async throws {
        // Given a loop that has been shut down
        let loop = try await Self.shutDownLoop()

        // When a server starts on it
        // Then the start fails at once with eventLoopShutDown
        await #expect(throws: TransportError.eventLoopShutDown) {
            try await withDeadline(.seconds(2), "server start on a shut-down loop") {
                _ = try await WebSocketServer.start(loop: loop)
            }
        }
    }

    @Test func onServiceThreadAfterShutdownThrowsEventLoopShutDown() async throws {
        // Given a loop that has been shut down
        let loop = try await Self.shutDownLoop()

        // When work is handed to its service thread
        // Then the hand-over fails at once with eventLoopShutDown, and the work never runs
        await #expect(throws: TransportError.eventLoopShutDown) {
            try await withDeadline(.seconds(2), "work on a shut-down loop") {
                try await loop.onServiceThread { _ in Issue.record("ran on a loop that had shut down") }
            }
        }
        #expect(await loop.connectionCount() == 0)
    }

    @Test func aLoopThatShutsDownEndsItsServersAndTheirConnections() async throws {
        // Given a server with one connected client, both on a loop of their own
        let loop = try WebSocketEventLoop()
        let server = try await WebSocketServer.start(loop: loop)
        let client = try await WebSocketConnection.connect(to: server.url + "/x", loop: loop)
        let accepted = try await firstConnection(server)

        // When the loop shuts down
        await loop.shutdown()

        // Then both ends are closed, the server's stream of connections ends, and its shutdown returns at once
        #expect(client.isOpen == false)
        #expect(accepted.isOpen == false)
        try await withDeadline(.seconds(2), "the end of the accepted connections") {
            for await _ in server.connections { Issue.record("a connection after the loop shut down") }
        }
        try await withDeadline(.seconds(2), "server shutdown on a shut-down loop") { await server.shutdown() }
        await #expect(throws: TransportError.self) { try await client.send(text: "too late") }
    }
}
