import JSONRPC
import PeerManager
import RoomServer
import RoomTestSupport
import SDP
import SignalingSupport
import Testing
import TestSupport

/// The room gauges follow every way a room changes in place (``RoomTable``'s `withRoom`): joins refused before and
/// after the room exists, candidates queued and forwarded, chat, publish, subscribe, unpublish and leave. A room a
/// refused first join would leave behind shows as a room count, or as `maxRooms` refusing a later room.
@Suite struct RoomGaugeTests {
    /// Rooms, participants, publishers and subscriptions, as a scrape shows them.
    static func gauges(_ fixture: MetricsFixture) -> [Double?] {
        let scrape = fixture.scrape
        return ["signaling_rooms", "signaling_participants", "signaling_publishers", "signaling_subscriptions"]
            .map { scrape[$0] }
    }

    @Test func gaugesFollowEveryInPlaceChangeAndRefusedJoinsLeaveNoRoom() async throws {
        let fixture = MetricsFixture()
        let server = RoomServer(configuration: .init(
            limits: .init(maxRooms: 1, maxParticipantsPerRoom: 2), reconnectionWindow: .milliseconds(50),
            metrics: fixture.metrics))
        func client() -> JSONRPCClient {
            JSONRPCClient(transport: LocalTransport.serving(server), configuration: .init(reconnect: .off, heartbeat: .off))
        }
        let alice = client(), bob = client(), carol = client(), mallory = client()

        try await withDeadline(.seconds(30), "the script") {
            // A first join creates the room
            _ = try await alice.call("joinRoom", params: ["user": "alice", "room": "a"])
            #expect(Self.gauges(fixture) == [1, 1, 0, 0])
            // A second room is refused (maxRooms 1), and so are a look-alike name and, once full, a third member
            #expect(await errorCode { try await bob.call("joinRoom", params: ["user": "bob", "room": "b"]) } != nil)
            #expect(await errorCode { try await mallory.call("joinRoom", params: ["user": "аlice", "room": "a"]) } != nil)
            _ = try await carol.call("joinRoom", params: ["user": "carol", "room": "a"])
            #expect(await errorCode { try await mallory.call("joinRoom", params: ["user": "mallory", "room": "a"]) } != nil)
            #expect(Self.gauges(fixture) == [1, 2, 0, 0])

            // Candidates before the endpoint exists are queued in place; a publish and a subscription are counted
            let candidate: JSONValue = ["endpointName": "alice", "candidate": "candidate:1 1 udp 1 10.0.0.1 9 typ host",
                                        "sdpMid": "0", "sdpMLineIndex": 0]
            _ = try await alice.call("onIceCandidate", params: candidate)
            let offer = try await PeerManager().generateOffer(for: "alice", media: .audioVideo(direction: .sendonly))
            _ = try await alice.call("publishVideo", params: ["sdpOffer": .string(offer), "doLoopback": false])
            #expect(Self.gauges(fixture) == [1, 2, 1, 0])
            _ = try await alice.call("onIceCandidate", params: candidate)
            let receive = try await PeerManager().generateOffer(for: "alice", media: .audioVideo(direction: .recvonly))
            _ = try await carol.call("receiveVideoFrom", params: ["sender": "alice_webcam", "sdpOffer": .string(receive)])
            #expect(Self.gauges(fixture) == [1, 2, 1, 1])
            // Chat changes no gauge
            _ = try await carol.call("sendMessage", params: ["message": "hi", "userMessage": "carol", "roomMessage": "a"])
            #expect(Self.gauges(fixture) == [1, 2, 1, 1])

            // Unpublishing ends the subscription too
            _ = try await alice.call("unpublishVideo")
            #expect(Self.gauges(fixture) == [1, 2, 0, 0])

            // Both leave: the room closes, and another room may now be created
            _ = try await carol.call("leaveRoom")
            #expect(Self.gauges(fixture) == [1, 1, 0, 0])
            _ = try await alice.call("leaveRoom")
            #expect(Self.gauges(fixture) == [0, 0, 0, 0])
            _ = try await bob.call("joinRoom", params: ["user": "bob", "room": "b"])
            #expect(Self.gauges(fixture) == [1, 1, 0, 0])
            _ = try await bob.call("leaveRoom")
            #expect(Self.gauges(fixture) == [0, 0, 0, 0])
        }
        for client in [alice, bob, carol, mallory] { await client.close() }
    }
}
