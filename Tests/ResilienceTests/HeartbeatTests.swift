import JSONRPC
import SignalingSupport
import TestSupport
import Testing

/// The heartbeat (docs/architecture.md#heartbeat) on a ManualClock: `ping` with `{"interval": ms}` first, any reply
/// proves liveness, no reply within one interval is a loss unless the server sent anything else meanwhile, the heartbeat restarts after a reconnect, and the RTT is
/// measured.
struct HeartbeatTests {
    let clock = ManualClock()
    let transport = ScriptedTransport()

    func client(reconnect: JSONRPCClient.ReconnectPolicy) -> JSONRPCClient {
        JSONRPCClient(transport: transport, configuration: .init(
            requestTimeout: .seconds(600), retries: 0, reconnect: reconnect, heartbeat: .every(.seconds(1)),
            clock: clock))
    }

    @Test func theFirstPingDeclaresTheIntervalAndTheRoundTripIsMeasured() async throws {
        // Given a connected client with a 1 s heartbeat
        let client = client(reconnect: .off)
        try await client.connect()
        let peer = try await transport.nextPeer()

        // When one interval passes, and the pong comes 200 ms later
        try await advance(clock, by: .seconds(1))
        let ping = try await peer.receive()
        #expect(ping["method"] == "ping" && ping["params"] == ["interval": 1000])
        clock.advance(by: .milliseconds(200))
        try await peer.reply(to: ping, ["value": "pong"])

        // Then the RTT is 200 ms (last and smoothed), and the next ping, one interval after the first, has no params
        try await waitUntil("the RTT") { client.heartbeatRTT != nil }
        #expect(client.heartbeatRTT == .milliseconds(200) && client.smoothedRTT == .milliseconds(200))
        try await advance(clock, by: .milliseconds(800), whenTimersExceed: 0)
        let second = try await peer.receive()
        #expect(second["method"] == "ping" && second["params"] == nil)
        clock.advance(by: .milliseconds(600))
        try await peer.reply(to: second, ["value": "pong"])
        try await waitUntil("the second RTT") { client.heartbeatRTT == .milliseconds(600) }
        // And the smoothed RTT moves by an eighth of the difference
        #expect(client.smoothedRTT == .milliseconds(250))
    }

    @Test func anErrorReplyProvesLivenessToo() async throws {
        // Given a connected client whose server answers ping with an error
        let client = client(reconnect: .off)
        try await client.connect()
        let peer = try await transport.nextPeer()
        try await advance(clock, by: .seconds(1))
        let ping = try await peer.receive()
        try await peer.send(["jsonrpc": "2.0", "id": ping["id"]!, "error": ["code": -32601, "message": "no"]])
        try await waitUntil("the RTT") { client.heartbeatRTT != nil }

        // When another interval passes
        try await advance(clock, by: .seconds(1))

        // Then the next ping goes out on the same connection: nothing was treated as lost
        let next = try await peer.receive()
        #expect(next["method"] == "ping")
        #expect(client.connectionState == .connected)
    }

    @Test func aServerThatSendsButAnswersLateIsSlowNotLost() async throws {
        // Given a connected client with a 1 s heartbeat, whose first ping the server leaves unanswered
        let client = client(reconnect: .off)
        let notifications = client.notifications
        try await client.connect()
        let peer = try await transport.nextPeer()
        try await advance(clock, by: .seconds(1))
        let ping = try await peer.receive()
        #expect(ping["method"] == "ping")

        // When the server sends something else within the interval (a storm's notification), but no pong
        try await peer.send(["jsonrpc": "2.0", "method": "participantLeft", "params": ["name": "bob"]])
        _ = try await withDeadline(.seconds(10), "the notification") {
            for try await notification in notifications { return notification }
            throw DeadlineExceeded(what: "notifications ended", timeout: .zero)
        }
        clock.advance(by: .seconds(1))

        // Then the connection stays up and another ping goes out at once, declaring the interval again
        let next = try await peer.receive()
        #expect(next["method"] == "ping" && next["params"] == ["interval": 1000])
        #expect(client.connectionState == .connected)

        // And when that one gets no reply and nothing else arrives within an interval, the connection is lost
        clock.advance(by: .seconds(1))
        try await waitUntil("the heartbeat to declare the connection lost") {
            if case .disconnected(let end?) = client.connectionState { end.reason.hasPrefix("heartbeat lost") } else { false }
        }
    }

    @Test func aMissingPongIsALossThatReconnectsAndTheHeartbeatRestarts() async throws {
        // Given a connected client with reconnect on
        let client = client(reconnect: .automatic(.init(seed: 9)))
        let log = StateLog(client)
        try await client.connect()
        let first = try await transport.nextPeer()

        // When a ping gets no reply within one interval
        try await advance(clock, by: .seconds(1))
        #expect(try await first.receive()["method"] == "ping")
        try await advance(clock, by: .seconds(1))

        // Then the connection counts as lost and the client reconnects
        try await log.wait(for: "reconnecting") { $0 == .reconnecting(attempt: 1) }
        try await advance(clock, by: .milliseconds(300))
        let second = try await transport.nextPeer()
        try await log.wait(for: "connected again") { _ in log.all.filter { $0 == .connected }.count == 2 }
        // And the heartbeat restarts there, declaring its interval again (Kurento's Java client forgot to)
        try await advance(clock, by: .seconds(1))
        let ping = try await second.receive()
        #expect(ping["method"] == "ping" && ping["params"] == ["interval": 1000])
    }
}
