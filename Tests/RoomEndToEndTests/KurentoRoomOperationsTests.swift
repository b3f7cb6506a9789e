import JSONRPC
import RoomClient
import RoomServer
import Testing
import TestSupport

/// docs/operations.md#rooms for rooms whose media is in Kurento Media Server: the KMS that serves each room, and
/// whether media flows on each stream and subscription, as the KMS double reports it (`MediaFlowInStateChanged`
/// once a publisher's ICE connected, `MediaFlowOutStateChanged` once a subscriber's did), read through `GET /rooms`.
@Suite struct KurentoRoomOperationsTests {
    static let token = "kms-ops-token-0123456789"

    /// `GET /rooms` with the admin token, parsed.
    static func rooms(_ server: RoomServer) async throws -> JSONValue {
        let port = try #require(RawHTTPClient.port(of: server.url))
        let response = try await RawHTTPClient.get(port: port, "/rooms", headers: ["Authorization": "Bearer \(token)"])
        #expect(response.status == 200)
        return try JSONValue(parsing: response.text)
    }

    /// The participant `name` of the first room of `snapshot`.
    static func participant(_ name: String, in snapshot: OperationsSnapshot) -> OperationsSnapshot.Participant? {
        snapshot.rooms.first?.participants.first { $0.name == name }
    }

    @Test func roomsShowTheirKMSAndWhetherMediaFlowsUntilTheEndpointsGo() async throws {
        let k = try await KurentoRoom.start(operations: .init(adminToken: Self.token))
        defer { Task { await k.stop() } }
        let alice = RoomUser("alice", room: "kms", url: k.server.url)
        let bob = RoomUser("bob", room: "kms", url: k.server.url)
        let flowing = OperationsSnapshot.Flow(audio: true, video: true)
        try await withDeadline(.seconds(30), "the rooms snapshot through KMS") {
            // Joined, nobody publishes: no pipeline, so no media server yet
            _ = try await alice.join()
            _ = try await bob.join()
            #expect(k.server.operationsSnapshot().rooms.map(\.mediaServer) == [nil])

            // When alice publishes and trickles a candidate, the double connects her ICE and her media flows in
            try await alice.publish(port: 41061)
            try await waitUntil("alice's media flows in") {
                Self.participant("alice", in: k.server.operationsSnapshot())?.streamFlows == ["webcam": flowing]
            }
            #expect(k.server.operationsSnapshot().rooms.map(\.mediaServer) == [k.kms.url])

            // When bob subscribes and trickles, his media flows out to him
            try await bob.waitForEvent("alice publishes") { if case .participantPublished = $0 { true } else { false } }
            try await bob.subscribe(to: "alice", port: 41062)
            try await waitUntil("bob's media flows out") {
                Self.participant("bob", in: k.server.operationsSnapshot())?.subscriptionFlows == ["alice": flowing]
            }

            // Then GET /rooms shows the KMS of the room and both flows
            let json = try await Self.rooms(k.server)
            let room = try #require(json["rooms"]?[0])
            #expect(room["mediaServer"] == .string(k.kms.url))
            let participants = try #require(room["participants"]?.arrayValue)
            #expect(participants.map { $0["name"] } == ["alice", "bob"])
            #expect(participants.map { $0["streamFlows"] } == [["webcam": ["audio": true, "video": true]], [:]])
            #expect(participants.map { $0["subscriptionFlows"] } == [[:], ["alice": ["audio": true, "video": true]]])

            // When alice's endpoint is released (she stops publishing), bob's subscription goes with it, and its flow
            try await alice.client.unpublishVideo()
            try await waitUntil("both endpoints released") { k.objects("WebRtcEndpoint").isEmpty }
            let after = k.server.operationsSnapshot()
            #expect(Self.participant("alice", in: after)?.streamFlows == [:])
            #expect(Self.participant("bob", in: after)?.subscriptions == [])
            #expect(Self.participant("bob", in: after)?.subscriptionFlows == [:])
            // The pipeline stays with the room, on the same KMS
            #expect(after.rooms.map(\.mediaServer) == [k.kms.url])

            // When everyone leaves, the room and its pipeline go
            try await alice.client.leave()
            try await bob.client.leave()
            try await k.waitUntilEmpty("the room emptied")
            #expect(k.server.operationsSnapshot().rooms.isEmpty)
        }
    }
}
