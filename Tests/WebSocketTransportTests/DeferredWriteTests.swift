import Foundation
import SignalingSupport
import TestSupport
import Testing
@testable import WebSocketTransport

/// Frames queued while a connection can take them go out at the end of the loop's turn, without a `WRITEABLE`
/// callback (docs/libwebsockets.md#writes): each of those cost two `epoll_ctl` and a turn of the loop.
@Suite struct DeferredWriteTests {
    @Test func anEchoExchangeWritesEveryFrameWithoutAWriteableCallback() async throws {
        // Given a server that echoes every message, and a client connected to it
        let server = try await WebSocketServer.start(WebSocketServerConfiguration())
        let echo = Task { () -> WebSocketConnection in
            let connection = try await firstConnection(server)
            for try await message in connection.messages { try await connection.send(message) }
            return connection
        }
        let client = try await WebSocketConnection.connect(to: server.url + "/echo")

        // When the client sends 50 messages, one at a time, each echoed before the next
        for index in 0..<50 {
            try await client.send(.text("message \(index)"))
            #expect(try await nextMessage(client) == .text("message \(index)"))
        }

        // Then neither side needed a WRITEABLE callback to write them
        let clientCallbacks = try await Self.writeableCallbacks(of: client)
        #expect(clientCallbacks == 0)
        await client.close()
        let serverCallbacks = try await Self.writeableCallbacks(of: try await echo.value)
        #expect(serverCallbacks == 0)
        await server.shutdown()
    }

    /// How many WRITEABLE callbacks lws made for `connection`, read on its service thread.
    static func writeableCallbacks(of connection: WebSocketConnection) async throws -> Int {
        let core = connection.core
        return try await core.loop.onServiceThread { _ in core.writeableCallbacks }
    }
}
