import JSONRPC
import PeerManager
import RoomClient
import RoomServer
import RoomTestSupport
import SDP
import SignalingSupport
import Testing
import TestSupport

/// docs/operations.md#metrics: a RoomServer with a Prometheus registry of its own, scripted sessions, and a scrape
/// read back line by line with exact values. Every wait has a deadline (docs/testing.md#deadlines).
@Suite struct MetricsTests {
    static func requests(_ method: String, _ outcome: String, code: Int? = nil) -> String {
        let code = code.map { #",code="\#($0)""# } ?? ""
        return #"signaling_requests_total{method="\#(method)",outcome="\#(outcome)"\#(code)}"#
    }

    static func latencyCount(_ method: String) -> String {
        #"signaling_request_duration_seconds_count{method="\#(method)"}"#
    }

    @Test func aScriptedRoomSessionShowsExactCounts() async throws {
        let fixture = MetricsFixture()
        let server = try await RoomServer.start(.init(reconnectionWindow: .milliseconds(100), metrics: fixture.metrics))
        let alice = RoomTestClient.metered("alice", room: "metrics", url: server.url)
        let bob = RoomTestClient.metered("bob", room: "metrics", url: server.url)

        try await withDeadline(.seconds(30), "the scripted session") {
            // Two join; alice publishes and bob subscribes to her; alice chats
            try await alice.client.join()
            try await bob.client.join()
            try await alice.waitForEvent("bob joined") { if case .participantJoined = $0 { true } else { false } }
            let offer = try await PeerManager().generateOffer(for: "alice", media: .audioVideo(direction: .sendonly))
            _ = try await alice.client.publishVideo(sdpOffer: offer)
            try await bob.waitForEvent("alice published") { if case .participantPublished = $0 { true } else { false } }
            let publisher = try #require(bob.client.peer(withIdentifier: "alice"))
            let answerMe = try await PeerManager().generateOffer(for: "alice", media: .audioVideo(direction: .recvonly))
            _ = try await bob.client.receiveVideo(from: publisher, sdpOffer: answerMe)
            try await bob.waitForEvent("bob's candidate") { if case .iceCandidate = $0 { true } else { false } }
            try await alice.client.sendMessage("hello")
            for user in [alice, bob] {
                try await user.waitForEvent("the chat") { $0 == .message("hello", from: "alice") }
            }
            try await fixture.waitUntil("signaling_notifications_sent_total", is: 6)

            // Mid-session: two connections, sessions and participants in one room, one publisher, one subscription
            var scrape = fixture.scrape
            #expect(scrape["signaling_connections"] == 2, "\(scrape)")
            #expect(scrape["signaling_sessions"] == 2)
            #expect(scrape["signaling_rooms"] == 1)
            #expect(scrape["signaling_participants"] == 2)
            #expect(scrape["signaling_publishers"] == 1)
            #expect(scrape["signaling_subscriptions"] == 1)
            #expect(scrape["signaling_outbox_depth"] == 0)

            // An unknown method, and bad params for a known one
            #expect(await errorCode { try await alice.client.jsonRPCClient.call("noSuchMethod") } == -32601)
            #expect(await errorCode {
                try await bob.client.jsonRPCClient.call("receiveVideoFrom", params: ["sender": 7, "sdpOffer": "x"])
            } == -32602)

            // Both leave: bob first (alice hears it), then alice, and the room closes
            try await bob.client.leave()
            try await alice.waitForEvent("bob left") { if case .participantLeft = $0 { true } else { false } }
            try await alice.client.leave()
            try await fixture.waitUntil("signaling_sessions", is: 0)
            try await fixture.waitUntil("signaling_connections", is: 0)

            scrape = fixture.scrape
            // Requests by method and outcome, and nothing else
            #expect(scrape[Self.requests("joinRoom", "result")] == 2, "\(scrape)")
            #expect(scrape[Self.requests("publishVideo", "result")] == 1)
            #expect(scrape[Self.requests("receiveVideoFrom", "result")] == 1)
            #expect(scrape[Self.requests("receiveVideoFrom", "error", code: -32602)] == 1)
            #expect(scrape[Self.requests("sendMessage", "result")] == 1)
            #expect(scrape[Self.requests("leaveRoom", "result")] == 2)
            #expect(scrape[Self.requests("unknown", "error", code: -32601)] == 1)
            #expect(scrape[Self.requests("ping", "result")] == 0)
            // Each RoomClient opens its session with `connect {"received": 0}` (docs/wire-protocol.md#delivery)
            #expect(scrape[Self.requests("connect", "result")] == 2)
            #expect(scrape.total("signaling_requests_total") == 11)
            // One latency per request of a registered method; none for the unknown one
            #expect(scrape[Self.latencyCount("joinRoom")] == 2)
            #expect(scrape[Self.latencyCount("receiveVideoFrom")] == 2)
            #expect(scrape[Self.latencyCount("leaveRoom")] == 2)
            #expect(scrape.total("signaling_request_duration_seconds_count") == 8)
            // Notifications: alice got participantJoined, iceCandidate, sendMessage, participantLeft; bob
            // participantPublished, iceCandidate, sendMessage
            #expect(scrape["signaling_notifications_queued_total"] == 7)
            #expect(scrape["signaling_notifications_sent_total"] == 7)
            #expect(scrape["signaling_notifications_dropped_total"] == 0)
            #expect(scrape["signaling_outbox_depth"] == 0)
            // Everything back to zero
            for gauge in ["signaling_rooms", "signaling_participants", "signaling_publishers", "signaling_subscriptions",
                          "signaling_sessions", "signaling_connections"] {
                #expect(scrape[gauge] == 0, "\(gauge)")
            }
            #expect(scrape["signaling_resumes_total"] == 0)
            #expect(scrape.total("signaling_closes_total") == 0)
        }
        await server.shutdown()
    }

    @Test func aForcedReconnectResumesAndCountsOnBothSides() async throws {
        let fixture = MetricsFixture()
        let server = RoomServer(configuration: .init(metrics: fixture.metrics))
        let transport = LocalTransport.serving(server)
        let backoff = JSONRPCClient.Backoff(initialDelay: .milliseconds(10), seed: 1)
        let client = JSONRPCClient(transport: transport, configuration: .init(
            reconnect: .automatic(backoff), heartbeat: .off, metrics: fixture.metrics))

        try await withDeadline(.seconds(20), "the resume") {
            _ = try await client.call("joinRoom", params: ["user": "carol", "room": "resumed"])
            #expect(client.sessionId != nil)
            await transport.dropNewest()
            try await waitUntil("the client resumed") { client.connectionState == .resumed }
            try await fixture.waitUntil("signaling_connections", is: 1)

            let scrape = fixture.scrape
            #expect(scrape["signaling_resumes_total"] == 1, "\(scrape)")
            #expect(scrape[#"signaling_reconnections_total{outcome="resumed"}"#] == 1)
            #expect(scrape[#"signaling_reconnections_total{outcome="fresh"}"#] == 0)
            #expect(scrape[#"signaling_reconnections_total{outcome="gave_up"}"#] == 0)
            #expect(scrape[Self.requests("connect", "result")] == 1)
            #expect(scrape[Self.requests("joinRoom", "result")] == 1)
            // The new connection's own session ended when it took the old one back
            #expect(scrape["signaling_sessions"] == 1)
            #expect(scrape["signaling_participants"] == 1)
        }
        await client.close()
    }

    @Test func rateLimitAndOverflowClosesAreCountedOnce() async throws {
        let fixture = MetricsFixture()
        // A session may send 4 requests per second (the clock never moves) and have 2 notifications waiting
        let server = RoomServer(configuration: .init(
            limits: .init(maxQueuedNotifications: 2, maxRequestsPerSecond: 4), reconnectionWindow: .seconds(5),
            clock: ManualClock(), metrics: fixture.metrics))
        let flooding = JSONRPCClient(transport: LocalTransport.serving(server),
                                     configuration: .init(reconnect: .off, heartbeat: .off))
        let aliceTransport = LocalTransport.serving(server), bobTransport = LocalTransport.serving(server)
        let alice = JSONRPCClient(transport: aliceTransport, configuration: .init(reconnect: .off, heartbeat: .off))
        let bob = JSONRPCClient(transport: bobTransport, configuration: .init(reconnect: .off, heartbeat: .off))
        let chat: JSONValue = ["message": "m", "userMessage": "flooder", "roomMessage": "flood"]

        try await withDeadline(.seconds(20), "the closes") {
            // The flooder's 8th request in one second is twice the limit: refused, and its connection closed
            _ = try await flooding.call("joinRoom", params: ["user": "flooder", "room": "flood"])
            for _ in 0..<3 { _ = try await flooding.call("sendMessage", params: chat) }
            for _ in 0..<4 { #expect(await errorCode { try await flooding.call("sendMessage", params: chat) } == -32000) }
            try await waitUntil("the flooder is closed") { flooding.connectionState != .connected }
            #expect(flooding.connectionState == .disconnected(ConnectionEnd(code: 1008, reason: "rate limited")))

            // Bob's socket drops; alice's three messages overflow his outbox of 2, which ends his session
            _ = try await alice.call("joinRoom", params: ["user": "alice", "room": "calm"])
            _ = try await bob.call("joinRoom", params: ["user": "bob", "room": "calm"])
            await bobTransport.dropNewest()
            try await fixture.waitUntil("signaling_connections", is: 1)
            let message: JSONValue = ["message": "m", "userMessage": "alice", "roomMessage": "calm"]
            for _ in 0..<3 { _ = try await alice.call("sendMessage", params: message) }
            try await fixture.waitUntil(#"signaling_closes_total{reason="overflow"}"#, is: 1)
            try await fixture.waitUntil("signaling_notifications_dropped_total", is: 3)

            let scrape = fixture.scrape
            #expect(scrape[#"signaling_closes_total{reason="rate_limit"}"#] == 1, "\(scrape)")
            #expect(scrape[#"signaling_closes_total{reason="overflow"}"#] == 1)
            #expect(scrape.total("signaling_closes_total") == 2)
            #expect(scrape[Self.requests("sendMessage", "result")] == Double(3 + 3))
            #expect(scrape[Self.requests("sendMessage", "error", code: -32000)] == 4)
            // Flooder: 3 chats to itself. Calm: participantJoined to alice, 3 chats to alice, 2 kept for bob and
            // the third refused, then participantLeft to alice; bob's 2 are dropped with his session.
            #expect(scrape["signaling_notifications_queued_total"] == Double(3 + 1 + 3 + 3 + 1))
            #expect(scrape["signaling_notifications_sent_total"] == Double(3 + 1 + 3 + 1))
            #expect(scrape["signaling_notifications_dropped_total"] == 3)
            #expect(scrape["signaling_outbox_depth"] == 0)
            // Alice, and the flooder, whose session waits in its window (the clock never moves)
            #expect(scrape["signaling_participants"] == 2)
            #expect(scrape["signaling_sessions"] == 2)
        }
        await alice.close()
        await bob.close()
    }
}
