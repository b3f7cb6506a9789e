import Foundation
import SignalingSupport
import TestSupport
import Testing
import WebSocketTransport

@Suite struct ConnectFailureTests {
    @Test func connectToClosedPortFailsFastWithClearError() async throws {
        let port = try SilentTCPListener.closedPort()
        var configuration = WebSocketClientConfiguration()
        configuration.handshakeTimeout = .seconds(60)
        let options = configuration
        // "Fast" means the refusal itself ends the attempt, long before the 60 s handshake timeout.
        let error = await #expect(throws: TransportError.self) {
            try await withDeadline(.seconds(20), "refused connect") {
                _ = try await WebSocketConnection.connect(to: "ws://127.0.0.1:\(port)/", configuration: options)
            }
        }
        guard case .connectFailed(let reason)? = error else {
            Issue.record("expected connectFailed, got \(String(describing: error))")
            return
        }
        #expect(!reason.isEmpty)
    }

    @Test func handshakeTimeoutFiresAgainstListenerThatNeverAnswers() async throws {
        let listener = try SilentTCPListener()
        var configuration = WebSocketClientConfiguration()
        configuration.handshakeTimeout = .milliseconds(300)
        let error = await #expect(throws: TransportError.self) {
            _ = try await WebSocketConnection.connect(to: "ws://127.0.0.1:\(listener.port)/", configuration: configuration)
        }
        #expect(error == .handshakeTimeout(.milliseconds(300)))
        _ = listener
    }

    @Test(arguments: ["ftp://127.0.0.1/", "ws://", "ws://host:99999/", "ws://[::1/x", "wss://user@host/"])
    func malformedURLIsRejectedBeforeDialling(url: String) async {
        let error = await #expect(throws: TransportError.self) { _ = try await WebSocketConnection.connect(to: url) }
        guard case .invalidURL? = error else {
            Issue.record("expected invalidURL, got \(String(describing: error))")
            return
        }
    }

    @Test func upgradeFilterSeesPathQueryAndHeadersAndCanRefuse() async throws {
        let seen = LockedValue<[UpgradeRequest]>([])
        var configuration = WebSocketServerConfiguration()
        configuration.extraHeaderNames = ["X-Client-Id"]
        configuration.upgradeFilter = { request in
            seen.withLock { $0.append(request) }
            return request.queryItem("access_token") == "good" ? .accept : .reject(status: 401, reason: "unauthorized")
        }
        let server = try await WebSocketServer.start(configuration)
        var client = WebSocketClientConfiguration()
        client.headers = [("Authorization", "Bearer abc"), ("X-Client-Id", "c-42")]

        await #expect(throws: TransportError.self) {
            _ = try await WebSocketConnection.connect(to: server.url + "/room?access_token=bad", configuration: client)
        }
        let accepted = try await WebSocketConnection.connect(to: server.url + "/room?access_token=good", configuration: client)

        let requests = seen.withLock { $0 }
        #expect(requests.count == 2)
        #expect(requests.last?.path == "/room")
        #expect(requests.last?.query == "access_token=good")
        #expect(requests.last?.headers["authorization"] == "Bearer abc")
        #expect(requests.last?.headers["x-client-id"] == "c-42")
        #expect(requests.last?.peerAddress.contains("127.0.0.1") == true)
        await accepted.close()
        await server.shutdown()
    }

    @Test func serverDropsSocketThatNeverCompletesTheHandshake() async throws {
        var configuration = WebSocketServerConfiguration()
        configuration.handshakeTimeout = .milliseconds(200)
        let server = try await WebSocketServer.start(configuration)
        let socket = try RawTCPClient(port: server.port)
        // Nothing is sent: the server must hang up by itself (slowloris protection).
        let closedByServer = try await withDeadline(.seconds(5), "server hang-up") { try await socket.waitForEOF() }
        #expect(closedByServer)
        await server.shutdown()
    }
}
