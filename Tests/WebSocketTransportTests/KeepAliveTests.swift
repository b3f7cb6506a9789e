import SignalingSupport
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

    /// Keep-alive limits of 1 s (PING) and 2 s (drop) on a client.
    static var briskClient: WebSocketClientConfiguration {
        var configuration = WebSocketClientConfiguration()
        configuration.limits.pingInterval = .seconds(1)
        configuration.limits.idleTimeout = .seconds(2)
        return configuration
    }

    @Test func clientDropsAServerThatNeverAnswersPings() async throws {
        let pings = LockedValue(0)
        let server = try HostileWebSocketServer { peer in
            while let frame = peer.nextFrame(), frame.opcode != .close {
                if frame.opcode == .ping { pings.withLock { $0 += 1 } }
            }
        }
        defer { server.stop() }
        let start = ContinuousClock.now
        let connection = try await WebSocketConnection.connect(to: server.url(), configuration: Self.briskClient)
        let info = try await closeInfo(connection)
        #expect(info.code == .abnormal)
        #expect(info.initiatedLocally)
        // Never early: the whole idle timeout passed without a sign of life.
        #expect(ContinuousClock.now - start >= .seconds(2))
        #expect(pings.withLock { $0 } >= 1, "the client pinged before giving up")
    }

    @Test func clientStaysOpenWhileTheServerAnswersPings() async throws {
        let server = try HostileWebSocketServer { peer in
            var answered = 0
            while answered < 3, let frame = peer.nextFrame() {
                guard frame.opcode == .ping else { continue }
                try peer.sendFrame(.pong, frame.payload)
                answered += 1
            }
            // Three PINGs answered: at least 3 s, past the 2 s idle timeout, and still open.
            try peer.sendText("still here")
            _ = peer.waitForClose()
        }
        defer { server.stop() }
        let connection = try await WebSocketConnection.connect(to: server.url(), configuration: Self.briskClient)
        #expect(try await nextMessage(connection) == .text("still here"))
        #expect(connection.isOpen)
        await connection.close()
        #expect(try await closeInfo(connection).code == .normal)
    }

    @Test func anyFrameFromThePeerIsASignOfLife() async throws {
        let server = try HostileWebSocketServer { peer in
            // Never a PONG: each PING is answered with a message instead.
            var answered = 0
            while answered < 3, let frame = peer.nextFrame() {
                guard frame.opcode == .ping else { continue }
                answered += 1
                try peer.sendText("message \(answered)")
            }
            try peer.sendText("done")
            _ = peer.waitForClose()
        }
        defer { server.stop() }
        let connection = try await WebSocketConnection.connect(to: server.url(), configuration: Self.briskClient)
        for expected in ["message 1", "message 2", "message 3", "done"] {
            #expect(try await nextMessage(connection) == .text(expected))
        }
        #expect(connection.isOpen)
        await connection.close()
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
