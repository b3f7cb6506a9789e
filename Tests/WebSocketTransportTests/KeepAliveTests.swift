import TestSupport
import Testing
import WebSocketTransport

@Suite struct KeepAliveTests {
    @Test func serverHangsUpOnPeerThatNeverAnswersPings() async throws {
        var configuration = WebSocketServerConfiguration()
        configuration.limits.pingInterval = .seconds(1)
        configuration.limits.idleTimeout = .seconds(2)
        let server = try await WebSocketServer.start(configuration)
        let peer = try RawTCPClient(port: server.port)
        try peer.sendUpgradeRequest(path: "/silent")
        let accepted = try await firstConnection(server)

        // The raw peer completes the upgrade and then never answers a PING: lws's validity timer drops it.
        let info = try await closeInfo(accepted, limit: .seconds(10))
        #expect(info.code == .abnormal)
        #expect(try await withDeadline(.seconds(5), "EOF at the peer") { try await peer.waitForEOF() })
        await server.shutdown()
    }

    @Test func cancelledConnectCompletesAtOnce() async throws {
        let listener = try SilentTCPListener()
        var configuration = WebSocketClientConfiguration()
        configuration.handshakeTimeout = .seconds(60)
        let attempt = Task {
            try await WebSocketConnection.connect(to: "ws://127.0.0.1:\(listener.port)/", configuration: configuration)
        }
        attempt.cancel()
        // Completes on cancellation, not at the 60 s handshake timeout.
        let error = await #expect(throws: TransportError.self) {
            try await withDeadline(.seconds(20), "cancelled connect") { _ = try await attempt.value }
        }
        #expect(error != .handshakeTimeout(.seconds(60)))
    }
}
