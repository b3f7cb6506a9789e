import JSONRPC
import JSONRPCWebSocket
import SignalingSupport
import TestSupport
import Testing

/// JSON-RPC recovery over real sockets through TestSupport's FaultProxy, with scaled-down timings (heartbeat
/// 150 ms, backoff from 50 ms): exactly-once completion under a cut, stall detection, and session takeover.
@Suite(.serialized)
struct FaultInjectionTests {
    /// A client through `proxy` with a fast heartbeat and backoff.
    static func client(through proxy: FaultProxy, timeout: Duration = .seconds(20)) -> JSONRPCClient {
        JSONRPCClient(url: proxy.url(path: "/"), configuration: .init(
            requestTimeout: timeout * deadlineScale, retries: 0, reconnect: .automatic(.fast),
            heartbeat: .every(.milliseconds(150))))
    }

    @Test func aCutUnderAThousandInFlightRequestsCompletesEachExactlyOnce() async throws {
        // Given a server whose handler counts its runs per request and holds its answers until the gate opens,
        // behind a proxy (room for all 1,000 handlers at once: the default is 64 per connection)
        let server = JSONRPCServer(configuration: .init(maxInFlightPerConnection: 1000))
        let runs = LockedValue([Int: Int]())
        let gate = Gate()
        server.register("work") { params, _ in
            let n = params?[0]?.intValue ?? -1
            runs.withLock { $0[n, default: 0] += 1 }
            if n >= 0 { await gate.wait() }
            return .int(n)
        }
        let listener = try await server.listen(on: .init())
        let proxy = try FaultProxy(targetPort: listener.port)
        defer { proxy.stop() }
        let client = Self.client(through: proxy)
        _ = try await client.call("work", params: [-1])
        let sessionId = try #require(client.sessionId)

        // When 1,000 requests are in flight and the connection is cut
        let completions = LockedValue([Int: Int]())
        let outcomes = LockedValue((resumed: 0, closed: 0, other: [String]()))
        let calls = (0..<1000).map { n in
            Task {
                do {
                    let result = try await client.call("work", params: [.int(n)])
                    #expect(result == ["value": .int(n), "sessionId": .string(sessionId)])
                    outcomes.withLock { $0.resumed += 1 }
                } catch RPCError.connectionClosed {
                    outcomes.withLock { $0.closed += 1 }
                } catch {
                    outcomes.withLock { $0.other.append("\(n): \(error)") }
                }
                completions.withLock { $0[n, default: 0] += 1 }
            }
        }
        try await waitUntil("requests to reach the server") { runs.withLock { $0 }.count > 100 }
        proxy.cutAll()
        gate.open()

        // Then each of the 1,000 completes exactly once, by resume or by connectionClosed
        try await withDeadline(.seconds(30), "1,000 completions") { for call in calls { await call.value } }
        #expect(completions.withLock { $0 }.count == 1000)
        #expect(completions.withLock { $0 }.values.allSatisfy { $0 == 1 })
        #expect(outcomes.withLock { $0 }.resumed + outcomes.withLock { $0 }.closed == 1000)
        #expect(outcomes.withLock { $0 }.other.isEmpty, "\(outcomes.withLock { $0 }.other.prefix(5))")
        // And no handler ran twice, although the pending requests were re-sent after the resume
        #expect(runs.withLock { $0 }.values.allSatisfy { $0 == 1 }, "\(runs.withLock { $0 }.filter { $0.value > 1 }.prefix(5))")
        #expect(client.sessionId == sessionId)
        await client.close()
        await listener.shutdown()
    }

    @Test func aStallLongerThanThePongDeadlineIsDetectedAndResumed() async throws {
        // Given a client with a 150 ms heartbeat through a proxy
        let server = JSONRPCServer()
        server.register("echo") { params, _ in params }
        let listener = try await server.listen(on: .init())
        let proxy = try FaultProxy(targetPort: listener.port)
        defer { proxy.stop() }
        let client = Self.client(through: proxy)
        let log = StateLog(client)
        _ = try await client.call("echo", params: ["before"])
        let sessionId = client.sessionId

        // When the network stalls (the socket stays open, nothing moves)
        proxy.pause()

        // Then the missing pong is noticed and the client reconnects; once the network moves again it resumes
        try await log.wait(for: "reconnecting") { $0 == .reconnecting(attempt: 1) }
        proxy.resume()
        try await log.wait(for: "resumed") { $0 == .resumed }
        #expect(client.sessionId == sessionId)
        #expect(try await client.call("echo", params: ["after"])["value"] == ["after"])
        await client.close()
        await listener.shutdown()
    }

    @Test func droppedBytesAreDetectedLikeAStallAndTheSessionResumes() async throws {
        // Given a client with a 150 ms heartbeat (and a short handshake timeout) through a proxy
        let server = JSONRPCServer()
        server.register("echo") { params, _ in params }
        let listener = try await server.listen(on: .init())
        let proxy = try FaultProxy(targetPort: listener.port)
        defer { proxy.stop() }
        var webSocket = WebSocketClientConfiguration()
        webSocket.handshakeTimeout = .milliseconds(500) * deadlineScale
        let client = JSONRPCClient(url: proxy.url(path: "/"), configuration: .init(
            requestTimeout: .seconds(20) * deadlineScale, retries: 0, reconnect: .automatic(.fast),
            heartbeat: .every(.milliseconds(150))), webSocket: webSocket)
        let log = StateLog(client)
        _ = try await client.call("echo", params: ["before"])
        let sessionId = client.sessionId

        // When the network turns into a black hole (bytes vanish, sockets stay open)
        proxy.dropping = true

        // Then the loss is noticed; once bytes flow again the client resumes its session
        try await log.wait(for: "reconnecting") { $0 == .reconnecting(attempt: 1) }
        proxy.dropping = false
        try await log.wait(for: "resumed") { $0 == .resumed }
        #expect(client.sessionId == sessionId)
        #expect(try await client.call("echo", params: ["after"])["value"] == ["after"])
        await client.close()
        await listener.shutdown()
    }

    @Test func theHeartbeatMeasuresTheRoundTripThroughADelayingNetwork() async throws {
        // Given a proxy that holds every chunk 40 ms, each way
        let server = JSONRPCServer()
        let listener = try await server.listen(on: .init())
        let proxy = try FaultProxy(targetPort: listener.port)
        defer { proxy.stop() }
        proxy.delay = .milliseconds(40)
        let client = JSONRPCClient(url: proxy.url(path: "/"), configuration: .init(
            reconnect: .automatic(.fast), heartbeat: .every(.milliseconds(500) * deadlineScale)))
        let log = StateLog(client)
        try await client.connect()

        // When a ping is answered
        try await waitUntil("a pong") { [client] in client.smoothedRTT != nil && client.heartbeatRTT != nil }

        // Then the last RTT includes both delays, and the slow network was never taken for a lost one
        #expect(client.heartbeatRTT! >= .milliseconds(80))
        #expect(!log.all.contains(.reconnecting(attempt: 1)))
        await client.close()
        await listener.shutdown()
    }

    @Test func connectFromAnotherSocketTakesTheSessionOverAndTheOldClientDoesNotReconnect() async throws {
        // Given a client with a session (reconnect on)
        let server = JSONRPCServer()
        server.register("echo") { params, _ in params }
        let listener = try await server.listen(on: .init())
        let first = JSONRPCClient(url: listener.url, configuration: .init(reconnect: .automatic(.fast), heartbeat: .off))
        let log = StateLog(first)
        _ = try await first.call("echo", params: [1])
        let sessionId = try #require(first.sessionId)

        // When another socket sends connect{sessionId} (docs/wire-protocol.md#sessions)
        let second = JSONRPCClient(url: listener.url, configuration: .init(reconnect: .off, heartbeat: .off))
        let reply = try await second.call("connect", params: ["sessionId": .string(sessionId)])
        // (a client that does not count what it reads is not told `replay`: docs/wire-protocol.md#delivery)
        #expect(reply == ["value": "reconnection successful", "sessionId": .string(sessionId), "capabilities": ["dedupe"]])

        // Then the first socket is closed with 4409 and that client ends without reconnecting
        try await log.wait(for: "closed with 4409") {
            if case .disconnected(let end?) = $0 { end.code == 4409 } else { false }
        }
        // (marker: the new owner's call goes through the same server after the close)
        _ = try await second.call("echo", params: [2])
        #expect(!log.all.contains(.reconnecting(attempt: 1)))
        #expect(server.session(id: sessionId)?.isConnected == true)
        await second.close()
        await listener.shutdown()
    }
}
