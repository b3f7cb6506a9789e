import TestSupport
import Testing
import WebSocketTransport

@Suite struct LifetimeTests {
    @Test func releasedServerStopsListeningAndClosesItsConnections() async throws {
        var server: WebSocketServer? = try await WebSocketServer.start()
        let url = server!.url + "/x"
        let client = try await WebSocketConnection.connect(to: url)
        server = nil  // released without shutdown()

        #expect(try await closeInfo(client).code == .goingAway)
        let error = await #expect(throws: TransportError.self) { _ = try await WebSocketConnection.connect(to: url) }
        guard case .connectFailed? = error else {
            Issue.record("expected connectFailed, got \(String(describing: error))")
            return
        }
    }

    @Test func releasedClientHandleClosesWithNormalClosure() async throws {
        let server = try await WebSocketServer.start()
        var client: WebSocketConnection? = try await WebSocketConnection.connect(to: server.url + "/x")
        let accepted = try await firstConnection(server)
        try await client?.send(text: "last words")
        client = nil

        #expect(try await nextMessage(accepted) == .text("last words"))
        #expect(try await closeInfo(accepted).code == .normal)
        await server.shutdown()
    }
}

@Suite struct CancellationTests {
    @Test func alreadyCancelledReaderGetsCancellationErrorInsteadOfWaiting() async throws {
        let server = try await WebSocketServer.start()
        let connection = try await WebSocketConnection.connect(to: server.url + "/x")
        let accepted = try await firstConnection(server)
        let reader = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var messages = connection.messages.makeAsyncIterator()
            return try await messages.next()
        }
        await #expect(throws: CancellationError.self) {
            _ = try await withDeadline(.seconds(5), "cancelled next()") { try await reader.value }
        }
        _ = accepted
        await connection.close()
        await server.shutdown()
    }
}
