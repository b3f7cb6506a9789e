import JSONRPC
import JSONRPCWebSocket
import TestSupport
import Testing

/// ``MessageConnection/roundTripTime``: measured by the server side of a WebSocket, absent elsewhere.
@Suite struct MessageConnectionRoundTripTimeTests {
    @Test func theServerSideOfAWebSocketReportsTheRoundTripTimeAndOthersReportNone() async throws {
        var configuration = WebSocketServerConfiguration()
        configuration.limits.rttProbeInterval = .milliseconds(100)
        let webSocketServer = try await WebSocketServer.start(configuration)
        let near = WebSocketMessageConnection(try await WebSocketConnection.connect(to: webSocketServer.url))
        let far: any MessageConnection = try await withDeadline(.seconds(10), "the accepted connection") {
            for await connection in webSocketServer.connections { return WebSocketMessageConnection(connection) }
            throw DeadlineExceeded(what: "a connection before shutdown", timeout: .zero)
        }

        try await waitUntil("a measured round trip") { far.roundTripTime != nil }
        #expect(near.roundTripTime == nil)  // client side: no probe
        let (local, _) = LocalMessageConnection.pair()
        #expect(local.roundTripTime == nil)  // the protocol's default
        await near.close(code: 1000, reason: "")
        await webSocketServer.shutdown()
    }
}
