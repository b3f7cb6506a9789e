import TestSupport
import Testing
import WebSocketTransport

@Suite struct SubprotocolTests {
    @Test func requestedSubprotocolIsNegotiatedAndSeenByTheServer() async throws {
        var configuration = WebSocketServerConfiguration()
        configuration.subprotocols = ["kurento-jsonrpc"]
        let echo = try await EchoServer.start(configuration)
        var client = WebSocketClientConfiguration()
        client.subprotocol = "kurento-jsonrpc"
        let connection = try await WebSocketConnection.connect(to: echo.url, configuration: client)
        try await connection.send(text: "with subprotocol")
        #expect(try await nextMessage(connection) == .text("with subprotocol"))
        await connection.close()
        await echo.stop()
    }

    @Test func refusedUpgradeReportsTheHTTPStatus() async throws {
        var configuration = WebSocketServerConfiguration()
        configuration.upgradeFilter = { _ in .reject(status: 403, reason: "forbidden") }
        let server = try await WebSocketServer.start(configuration)
        let error = await #expect(throws: TransportError.self) {
            _ = try await WebSocketConnection.connect(to: server.url + "/room")
        }
        #expect(String(describing: error).contains("403"), "\(String(describing: error))")
        await server.shutdown()
    }
}
