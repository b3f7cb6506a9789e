import TestSupport
import Testing
import WebSocketTransport

/// `http://` URLs, as the Kurento iOS toolbox documents room URLs, dial as `ws://` (docs/wire-protocol.md#stock-kurento;
/// `https://` as `wss://` is in TLSTests).
@Suite struct HTTPSchemeURLTests {
    @Test(arguments: ["http", "HTTP"])
    func anHTTPURLDialsTheWebSocketServer(scheme: String) async throws {
        let echo = try await EchoServer.start()
        let connection = try await WebSocketConnection.connect(to: "\(scheme)://127.0.0.1:\(echo.server.port)/")
        try await connection.send(text: "over http://")
        #expect(try await nextMessage(connection) == .text("over http://"))
        await connection.close()
        await echo.stop()
    }
}
