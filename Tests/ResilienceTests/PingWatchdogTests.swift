import JSONRPC
import SignalingSupport
import TestSupport
import Testing

/// The server ping watchdog (docs/architecture.md#server-sessions): 3 × the client's interval clamped to 1–60 s, armed
/// by the first ping; a silent session is treated like a dropped socket.
struct PingWatchdogTests {
    let clock = ManualClock()

    /// A server and a raw connection that has pinged with `interval` (ms); returns the session id too.
    func pingedSession(interval: Int?) async throws -> (JSONRPCServer, LocalMessageConnection, String) {
        let server = JSONRPCServer(configuration: .init(reconnectionWindow: .seconds(10), clock: clock))
        let (near, far) = LocalMessageConnection.pair()
        Task { await server.serve(far) }
        let peer = ScriptedPeer(connection: near)
        try await peer.send(["jsonrpc": "2.0", "id": 1, "method": "connect"])
        let sessionId = try #require(try await peer.receive()["result"]?["sessionId"]?.stringValue)
        if let interval {
            try await peer.send(["jsonrpc": "2.0", "id": 2, "method": "ping", "params": ["interval": .int(interval)]])
            #expect(try await peer.receive()["result"] == ["value": "pong"])
        }
        return (server, near, sessionId)
    }

    /// Sends a `ping` (with `params`, if any) on `peer` and reads its answer.
    func ping(_ peer: ScriptedPeer, id: Int, params: JSONValue? = nil) async throws {
        if let params {
            try await peer.send(["jsonrpc": "2.0", "id": .int(id), "method": "ping", "params": params])
        } else {
            try await peer.send(["jsonrpc": "2.0", "id": .int(id), "method": "ping"])
        }
        _ = try await peer.receive()
    }

    /// Expects the session still bound 2.9 s from now and detached once 3.1 s have passed.
    func expectDetachedAfterThreeSeconds(_ server: JSONRPCServer, _ sessionId: String) async throws {
        clock.advance(by: .milliseconds(2900))
        #expect(server.session(id: sessionId)?.isConnected == true)
        clock.advance(by: .milliseconds(200))
        try await waitUntil("the session to be detached") { server.session(id: sessionId)?.isConnected == false }
    }

    @Test func aSilentSessionIsDetachedAfterThreeClampedIntervals() async throws {
        // Given a session that declared a 100 ms interval (clamped up to 1 s)
        let (server, connection, sessionId) = try await pingedSession(interval: 100)

        // When 2.9 s pass without a ping, the session is still bound
        clock.advance(by: .milliseconds(2900))
        #expect(server.session(id: sessionId)?.isConnected == true)

        // Then at 3 s its window starts (it is unbound, still resumable) and its socket is closed
        clock.advance(by: .milliseconds(200))
        try await waitUntil("the session to be detached") { server.session(id: sessionId)?.isConnected == false }
        await #expect(throws: ConnectionEnd.self) {
            try await withDeadline(.seconds(10), "the close") { while true { _ = try await connection.receive() } }
        }
        #expect(server.session(id: sessionId) != nil)
        // And when the window passes, the session ends
        clock.advance(by: .seconds(10))
        try await waitUntil("the session to end") { server.session(id: sessionId) == nil }
    }

    @Test func eachPingRearmsTheWatchdog() async throws {
        // Given a session with a 1 s interval
        let (server, connection, sessionId) = try await pingedSession(interval: 1000)
        let peer = ScriptedPeer(connection: connection)

        // When it pings every 2 s for 10 s
        for id in 3..<8 {
            clock.advance(by: .seconds(2))
            try await peer.send(["jsonrpc": "2.0", "id": .int(id), "method": "ping"])
            _ = try await peer.receive()
        }

        // Then it is still bound
        #expect(server.session(id: sessionId)?.isConnected == true)
    }

    @Test func theWatchdogFiresThreeIntervalsAfterTheLastPingNotTheFirst() async throws {
        // Given a session with a 1 s interval that pings again at +2 s (its first timer was set for +3 s)
        let (server, connection, sessionId) = try await pingedSession(interval: 1000)
        clock.advance(by: .seconds(2))
        try await ping(ScriptedPeer(connection: connection), id: 3)

        // Then past the first timer's time, up to just before +5 s, the session is still bound, and at +5 s (3 s
        // after the last ping) it is detached
        try await expectDetachedAfterThreeSeconds(server, sessionId)
    }

    @Test func aShorterDeclaredIntervalTakesEffectAtOnce() async throws {
        // Given a session that declared 10 s (a watchdog 30 s away)
        let (server, connection, sessionId) = try await pingedSession(interval: 10_000)

        // When it pings again declaring 1 s
        try await ping(ScriptedPeer(connection: connection), id: 3, params: ["interval": 1000])

        // Then the watchdog fires 3 s later, not 30
        try await expectDetachedAfterThreeSeconds(server, sessionId)
    }

    @Test func oneTimerWatchesEverySessionAndStopsWhenNoneIsArmed() async throws {
        // Given a server with 20 sessions that pinged
        let server = JSONRPCServer(configuration: .init(reconnectionWindow: .seconds(10), clock: clock))
        var peers: [ScriptedPeer] = []
        for _ in 0..<20 {
            let (near, far) = LocalMessageConnection.pair()
            Task { await server.serve(far) }
            let peer = ScriptedPeer(connection: near)
            try await peer.send(["jsonrpc": "2.0", "id": 1, "method": "ping", "params": ["interval": 1000]])
            _ = try await peer.receive()
            peers.append(peer)
        }
        // Then one timer (the sweep) watches them all, not one per session
        #expect(clock.pendingTimers == 1)

        // When they all close their sessions, the sweep lets them go at once (not at their deadline's second, 3 s),
        // so its next round, after 1 s, arms nothing more
        for (index, peer) in peers.enumerated() {
            try await peer.send(["jsonrpc": "2.0", "id": .int(index + 2), "method": "closeSession"])
            _ = try await peer.receive()
        }
        clock.advance(by: .seconds(1))
        #expect(clock.pendingTimers == 0)
    }

    @Test func aDeclaredIntervalIsClampedToSixtySeconds() async throws {
        // Given a session that declared one hour
        let (server, _, sessionId) = try await pingedSession(interval: 3_600_000)

        // Then the watchdog fires after 3 × 60 s, not 3 hours
        clock.advance(by: .seconds(179))
        #expect(server.session(id: sessionId)?.isConnected == true)
        clock.advance(by: .seconds(2))
        try await waitUntil("the session to be detached") { server.session(id: sessionId)?.isConnected == false }
    }

    @Test func withoutAPingTheWatchdogNeverArms() async throws {
        // Given a session that never pinged
        let (server, _, sessionId) = try await pingedSession(interval: nil)

        // When a long time passes
        clock.advance(by: .seconds(3600))

        // Then it is still bound (lws's own WebSocket keep-alive covers such clients)
        #expect(server.session(id: sessionId)?.isConnected == true)
    }
}
