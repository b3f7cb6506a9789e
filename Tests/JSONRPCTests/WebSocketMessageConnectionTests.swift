import Foundation
import JSONRPC
import JSONRPCWebSocket
import TestSupport
import Testing

/// The adapter's contract (``MessageConnection``) over real sockets, with a raw WebSocket on the other side.
@Suite struct WebSocketMessageConnectionTests {
    @Test func binaryFrameIsReadAsUTF8TextAndAnsweredWithText() async throws {
        let reply = try await withListener(.specificationExamples(conventions: .plain)) { listener in
            try await WebSocketConnection.withConnection(to: listener.url) { inbound, outbound in
                try await outbound.send(.binary(Data(#"{"jsonrpc":"2.0","method":"echo","params":["é"],"id":1}"#.utf8)))
                return try await withDeadline(.seconds(10), "the reply") {
                    var messages = inbound.makeAsyncIterator()
                    return try await messages.next()
                }
            }
        }
        guard case .text(let text)? = reply else { Issue.record("expected a text reply, got \(String(describing: reply))"); return }
        #expect(try JSONValue(parsing: text) == ["jsonrpc": "2.0", "result": ["é"], "id": 1])
    }

    @Test(arguments: [(1000, ""), (1001, "going away"), (4000, "custom")] as [(UInt16, String)])
    func peerCloseEndsReceiveAndSendWithTheCloseCodeAndReason(_ code: UInt16, _ reason: String) async throws {
        // Given an adapter on each end of a WebSocket
        let webSocketServer = try await WebSocketServer.start(.init())
        let near = WebSocketMessageConnection(try await WebSocketConnection.connect(to: webSocketServer.url))
        let far = try await withDeadline(.seconds(10), "the accepted connection") {
            for await connection in webSocketServer.connections { return WebSocketMessageConnection(connection) }
            throw DeadlineExceeded(what: "a connection before shutdown", timeout: .zero)
        }

        // When the far end sends one message and closes with `code`
        try await far.send("last words")
        await far.close(code: code, reason: reason)

        // Then the near end receives the message, then ConnectionEnd with that code and reason, again and again,
        // and sending fails with it too
        let peer = RawPeer(connection: near)
        #expect(try await peer.receiveText() == "last words")
        let expected = ConnectionEnd(code: code, reason: reason)
        for _ in 0..<2 { await #expect(throws: expected) { _ = try await peer.receiveText() } }
        await #expect(throws: expected) { try await near.send("too late") }
        await webSocketServer.shutdown()
    }
}
