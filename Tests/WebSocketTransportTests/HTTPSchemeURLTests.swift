import TestSupport
import Testing
import WebSocketTransport

/// `http://` and `https://` URLs, as the Kurento iOS toolbox documents room URLs, dial as `ws://` and `wss://`
/// (docs/wire-protocol.md#stock-kurento).
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

    @Test func anHTTPSURLDialsWithTLS() async throws {
        let fixture = try TLSFixture.make()
        let echo = try await TLSTests.secureEcho(fixture)
        var configuration = WebSocketClientConfiguration()
        configuration.tls = TLSClientConfiguration(caFile: fixture.caFile)
        let connection = try await WebSocketConnection.connect(
            to: "https://127.0.0.1:\(echo.server.port)/", configuration: configuration)
        try await connection.send(text: "over https://")
        #expect(try await nextMessage(connection) == .text("over https://"))
        await connection.close()
        await echo.stop()
    }
}
