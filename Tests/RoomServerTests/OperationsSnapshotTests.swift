import JSONRPC
import RoomProtocol
@testable import RoomServer
import SDP
import SignalingSupport
import Testing
import TestSupport

/// docs/operations.md#rooms: ``RoomServer/operationsSnapshot()``, what `GET /rooms` serves and the `/admin`
/// subscription sends.
@Suite struct OperationsSnapshotTests {
    @Test func snapshotListsRoomsParticipantsStreamsAndSubscriptions() async throws {
        // Given alice publishing in "demo" and bob receiving her stream
        let server = RoomServer(configuration: .init(media: TestMediaBackend()))
        let alice = RoomPeer.connected(to: server), bob = RoomPeer.connected(to: server)
        let aliceSession = try #require(
            try await alice.result("joinRoom", ["user": "alice", "room": "demo"])["sessionId"]?.stringValue)
        try await alice.result("publishVideo", ["sdpOffer": "offer", "doLoopback": false])
        try await bob.join("bob", "demo")
        try await bob.result("receiveVideoFrom", ["sender": "alice_webcam", "sdpOffer": "offer"])
        let before = server.operationsSnapshot()

        // Then the snapshot has the one room, both in join order, with her stream and his subscription
        #expect(before.node == nil)
        #expect(before.rooms.map(\.name) == ["demo"])
        let participants = try #require(before.rooms.first?.participants)
        #expect(participants.map(\.name) == ["alice", "bob"])
        #expect(participants[0].streams == ["webcam"])
        #expect(participants[0].subscriptions == [])
        #expect(participants[1].streams == [])
        #expect(participants[1].subscriptions == ["alice"])
        #expect(participants.allSatisfy { $0.connected == true && $0.outboxDepth == 0 && !$0.remote && $0.node == nil })
        #expect(before.totals == .init(rooms: 1, participants: 2, streams: 1, subscriptions: 1))

        // And its JSON has every member (unknowns as null) and never a session id
        let json = try JSONValue(encoding: before)
        let entry = json["rooms"]?[0]?["participants"]?[0]
        #expect(entry?["rttMilliseconds"] == .null)
        #expect(entry?["node"] == .null)
        #expect(json["node"] == .null)
        #expect(json["totals"]?["streams"] == 1)
        #expect(!json.jsonText.contains(aliceSession))
        #expect(!json.jsonText.contains("sessionId"))

        // When bob leaves, the snapshot drops him and its version counts up
        _ = try await bob.request("leaveRoom")
        let after = server.operationsSnapshot()
        #expect(after.rooms.first?.participants.map(\.name) == ["alice"])
        #expect(after.version > before.version)
        #expect(after.totals == .init(rooms: 1, participants: 1, streams: 1, subscriptions: 0))
    }

    @Test func disconnectedParticipantShowsItsQueuedNotifications() async throws {
        // Given alice whose socket dropped, waiting in a long reconnection window
        let server = RoomServer(configuration: .init(media: TestMediaBackend(), reconnectionWindow: .seconds(60)))
        let alice = RoomPeer.connected(to: server), bob = RoomPeer.connected(to: server)
        try await alice.join("alice")
        await alice.connection.close(code: 1006, reason: "dropped")
        try await waitUntil("alice's session to lose its connection") {
            server.operationsSnapshot().rooms.first?.participants.first?.connected == false
        }

        // When bob joins, the participantJoined for alice waits in her outbox
        try await bob.join("bob")
        let participants = try #require(server.operationsSnapshot().rooms.first?.participants)
        #expect(participants.map(\.name) == ["alice", "bob"])
        #expect(participants[0].connected == false)
        #expect(participants[0].outboxDepth == 1)
        #expect(participants[1].outboxDepth == 0)
    }

    @Test func simulatedMediaShowsNoMediaServerAndUnknownFlows() async throws {
        // Given alice publishing and bob receiving her, through the simulated media, which reports no flow
        let server = RoomServer(configuration: .init(media: SimulatedMediaBackend()))
        let alice = RoomPeer.connected(to: server), bob = RoomPeer.connected(to: server)
        try await alice.join("alice", "demo")
        try await alice.result("publishVideo", ["sdpOffer": .string(try await MediaOffers.client(.sendonly)),
                                                "doLoopback": false])
        try await bob.join("bob", "demo")
        try await bob.result("receiveVideoFrom",
                             ["sender": "alice_webcam", "sdpOffer": .string(try await MediaOffers.client(.recvonly))])

        // Then the room has no media server, and each stream and subscription has a flow entry, all unknown
        let snapshot = server.operationsSnapshot()
        let room = try #require(snapshot.rooms.first)
        #expect(room.mediaServer == nil)
        #expect(room.participants.map(\.streamFlows) == [["webcam": .init()], [:]])
        #expect(room.participants.map(\.subscriptionFlows) == [[:], ["alice": .init()]])

        // And the JSON says so with nulls, every member present
        let json = try JSONValue(encoding: snapshot)
        #expect(json["rooms"]?[0]?["mediaServer"] == .null)
        let participants = try #require(json["rooms"]?[0]?["participants"]?.arrayValue)
        #expect(participants.map { $0["streamFlows"] } == [["webcam": ["audio": nil, "video": nil]], [:]])
        #expect(participants.map { $0["subscriptionFlows"] } == [[:], ["alice": ["audio": nil, "video": nil]]])
    }

    @Test func flowReportsShowPerEndpointAndGoWithTheEndpoint() async throws {
        // Given alice publishing and bob receiving her, through a backend that names its media server
        let backend = TestMediaBackend()
        backend.servedBy.withLock { $0 = "ws://kms-1:8888/kurento" }
        let server = RoomServer(configuration: .init(media: backend))
        let alice = RoomPeer.connected(to: server), bob = RoomPeer.connected(to: server)
        try await alice.join("alice", "demo")
        try await alice.result("publishVideo", ["sdpOffer": "offer", "doLoopback": false])
        try await bob.join("bob", "demo")
        try await bob.result("receiveVideoFrom", ["sender": "alice_webcam", "sdpOffer": "offer"])
        let publisher = MediaEndpointID(room: "demo", owner: "alice", endpoint: .publisher)
        let subscription = MediaEndpointID(room: "demo", owner: "bob", endpoint: .subscriber(to: "alice"))
        let before = server.operationsSnapshot()
        #expect(before.rooms.first?.mediaServer == "ws://kms-1:8888/kurento")

        // When the backend reports her audio and video flowing in, his video flowing out and his audio stopped (and
        // a flow the other way, and one of a kind the snapshot does not show, which change nothing it shows)
        backend.report(.flow(publisher, MediaFlow(direction: .inbound, kind: "audio", flowing: true)))
        backend.report(.flow(publisher, MediaFlow(direction: .inbound, kind: "video", flowing: true)))
        backend.report(.flow(publisher, MediaFlow(direction: .outbound, kind: "video", flowing: false)))
        backend.report(.flow(subscription, MediaFlow(direction: .outbound, kind: "video", flowing: true)))
        backend.report(.flow(subscription, MediaFlow(direction: .outbound, kind: "audio", flowing: false)))
        backend.report(.flow(subscription, MediaFlow(direction: .outbound, kind: "data", flowing: true)))

        // Then the snapshot shows each, and counted as changes
        let flowing = server.operationsSnapshot()
        let participants = try #require(flowing.rooms.first?.participants)
        #expect(participants[0].streamFlows == ["webcam": .init(audio: true, video: true)])
        #expect(participants[1].subscriptionFlows == ["alice": .init(audio: false, video: true)])
        #expect(flowing.version > before.version)

        // When alice unpublishes, her stream and his subscription go, their flows with them; a late report of the
        // released subscription changes nothing
        try await alice.result("unpublishVideo")
        backend.report(.flow(subscription, MediaFlow(direction: .outbound, kind: "video", flowing: false)))
        let after = try #require(server.operationsSnapshot().rooms.first?.participants)
        #expect(after.map(\.streamFlows) == [[:], [:]])
        #expect(after.map(\.subscriptionFlows) == [[:], [:]])

        // And when she publishes and he subscribes again, their flows start unknown
        try await alice.result("publishVideo", ["sdpOffer": "offer", "doLoopback": false])
        try await bob.result("receiveVideoFrom", ["sender": "alice_webcam", "sdpOffer": "offer"])
        let again = try #require(server.operationsSnapshot().rooms.first?.participants)
        #expect(again[0].streamFlows == ["webcam": .init()])
        #expect(again[1].subscriptionFlows == ["alice": .init()])
    }

    @Test func emptyServerHasNoRooms() {
        let snapshot = RoomServer(configuration: .init()).operationsSnapshot()
        #expect(snapshot.rooms.isEmpty)
        #expect(snapshot.totals == .init(rooms: 0, participants: 0, streams: 0, subscriptions: 0))
        #expect(snapshot.generatedAt.hasSuffix("Z"))
        #expect(snapshot.generatedAt.count == "2025-01-31T12:00:00.000Z".count)
    }
}

/// docs/operations.md#admin-subscription: `subscribeRooms`, then `roomsChanged` coalesced per interval, on a manual clock.
@Suite struct AdminSubscriptionTests {
    static func server(clock: ManualClock) -> RoomServer {
        RoomServer(configuration: .init(media: TestMediaBackend(), operations: .init(
            adminToken: "secret-0123456789abcdef", snapshotInterval: .milliseconds(100)), clock: clock))
    }

    static func admin(of server: RoomServer) -> RoomPeer {
        let (near, far) = LocalMessageConnection.pair()
        Task { await server.serveAdmin(far) }
        return RoomPeer(connection: near)
    }

    @Test func subscribeRoomsAnswersTheSnapshotThenOneNotificationPerBurst() async throws {
        // Given an admin subscribed to an empty server
        let clock = ManualClock()
        let server = Self.server(clock: clock)
        let admin = Self.admin(of: server)
        let first = try await admin.result("subscribeRooms")
        #expect(first["rooms"] == [])
        #expect(first["totals"]?["participants"] == 0)

        // When three users join at once, nothing is sent before the interval ends (getRooms is the marker) ...
        for user in ["u1", "u2", "u3"] { try await RoomPeer.connected(to: server).join(user) }
        #expect(try await admin.result("getRooms")["totals"]?["participants"] == 3)
        #expect(admin.unreadNotifications.isEmpty)

        // ... and when it ends, exactly one snapshot with all three
        clock.advance(by: .milliseconds(100))
        let changed = try await admin.notification("roomsChanged")
        #expect(changed["rooms"]?[0]?["participants"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["u1", "u2", "u3"])
        let firstVersion = try #require(first["version"]?.intValue)
        #expect(try #require(changed["version"]?.intValue) > firstVersion)
        clock.advance(by: .milliseconds(100))
        _ = try await admin.result("getRooms")
        #expect(admin.unreadNotifications.isEmpty)

        // When one more leaves, the next interval sends one more snapshot
        let leaver = RoomPeer.connected(to: server)
        try await leaver.join("u4")
        _ = try await leaver.request("leaveRoom")
        clock.advance(by: .milliseconds(100))
        let next = try await admin.notification("roomsChanged")
        #expect(next["totals"]?["participants"] == 3)
    }

    @Test func withoutChangesASnapshotGoesOutEveryRefreshInterval() async throws {
        // Given a subscribed admin, and a server whose rooms do not change
        let clock = ManualClock()
        let server = RoomServer(configuration: .init(media: TestMediaBackend(), operations: .init(
            adminToken: "secret-0123456789abcdef", snapshotInterval: .milliseconds(100), snapshotRefresh: .seconds(5)), clock: clock))
        let admin = Self.admin(of: server)
        let first = try await admin.result("subscribeRooms")

        // Then nothing comes before the refresh interval, and one snapshot (of the same version) when it ends
        clock.advance(by: .milliseconds(4999))
        _ = try await admin.result("getRooms")
        #expect(admin.unreadNotifications.isEmpty)
        clock.advance(by: .milliseconds(1))
        let refreshed = try await admin.notification("roomsChanged")
        #expect(refreshed["version"] == first["version"])
        // ... and the next one a refresh interval later
        clock.advance(by: .seconds(5))
        _ = try await admin.notification("roomsChanged")
    }

    @Test func chatDoesNotSendSnapshots() async throws {
        let clock = ManualClock()
        let server = Self.server(clock: clock)
        let admin = Self.admin(of: server)
        _ = try await admin.result("subscribeRooms")
        let alice = RoomPeer.connected(to: server)
        try await alice.join("alice")
        clock.advance(by: .milliseconds(100))
        _ = try await admin.notification("roomsChanged")

        try await alice.result("sendMessage", ["message": "hi", "userMessage": "alice", "roomMessage": "room1"])
        clock.advance(by: .milliseconds(100))
        _ = try await admin.result("getRooms")
        #expect(admin.unreadNotifications.isEmpty)
    }

    @Test func closingTheSocketEndsTheSubscription() async throws {
        let clock = ManualClock()
        let server = Self.server(clock: clock)
        let admin = Self.admin(of: server), other = Self.admin(of: server)
        _ = try await admin.result("subscribeRooms")
        _ = try await other.result("subscribeRooms")
        #expect(server.adminFeed.subscriberCount == 2)

        // unsubscribeRooms ends one, and a closed socket the other (its session has no reconnection window)
        #expect(try await other.result("unsubscribeRooms") == .null)
        #expect(server.adminFeed.subscriberCount == 1)
        await admin.connection.close(code: 1000, reason: "")
        try await waitUntil("the closed admin session to end") {
            clock.advance(by: .zero)
            return server.adminFeed.subscriberCount == 0
        }
    }
}
