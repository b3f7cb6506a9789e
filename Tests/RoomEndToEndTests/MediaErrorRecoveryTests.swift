import PeerManager
import RoomClient
import RoomProtocol
import RoomServer
import Testing
import TestSupport

/// `mediaError` from the simulated backend's fault injection (docs/wire-protocol.md#media-errors): the server drops
/// the failed endpoint and names it, and a RoomClient with an offer provider makes it again.
@Suite struct MediaErrorRecoveryTests {
    static let room = "faults"

    @Test func aFailedSubscriptionIsMadeAgainWhileItsPublisherStillPublishes() async throws {
        let media = SimulatedMediaBackend()
        let server = try await RoomServer.start(.init(media: media))
        defer { Task { await server.shutdown() } }
        let alice = RoomUser("alice", room: Self.room, url: server.url)
        let bob = KurentoRoom.restoringUser("bob", room: Self.room, url: server.url)
        try await withDeadline(.seconds(30), "a failed subscription") {
            _ = try await alice.join()
            _ = try await bob.join()
            try await alice.publish(port: 42001)
            try await bob.subscribe(to: "alice", port: 42002)
            let subscription = MediaEndpointID(room: Self.room, owner: "bob", endpoint: .subscriber(to: "alice"))
            #expect(media.endpoints.filter { $0 == subscription }.count == 1)
            #expect(media.fail(subscription, reason: "ICE failed"))
            try await bob.waitForEvent("mediaError") { $0 == .mediaError("ICE failed", endpoint: .subscriber(to: "alice")) }
            // Alice still publishes: bob's client subscribes again by itself, a new endpoint at the backend.
            try await waitUntil("bob subscribed again") {
                media.endpoints.filter { $0 == subscription }.count == 1 && server.operationsSnapshot()
                    .rooms.first?.participants.first { $0.name == "bob" }?.subscriptions == ["alice"]
            }
            // Alice heard nothing of it.
            #expect(!alice.allEvents.contains { if case .mediaError = $0 { true } else { false } })
            #expect(!bob.allEvents.contains(.participantUnpublished(Peer(identifier: "alice"))))
        }
    }

    @Test func aFailedPublisherIsUnpublishedForTheOthersAndPublishedAgainByItsClient() async throws {
        let media = SimulatedMediaBackend()
        let server = try await RoomServer.start(.init(media: media))
        defer { Task { await server.shutdown() } }
        let alice = KurentoRoom.restoringUser("alice", room: Self.room, url: server.url)
        let bob = RoomUser("bob", room: Self.room, url: server.url)
        try await withDeadline(.seconds(30), "a failed publisher") {
            _ = try await alice.join()
            _ = try await bob.join()
            try await alice.publish(port: 42011)
            try await bob.subscribe(to: "alice", port: 42012)
            let publisher = MediaEndpointID(room: Self.room, owner: "alice", endpoint: .publisher)
            #expect(media.fail(publisher, reason: "encoder crashed"))
            try await alice.waitForEvent("mediaError") { $0 == .mediaError("encoder crashed", endpoint: .publisher) }
            // Bob: alice's stream stopped (his subscription with it), then his own mediaError for the subscription,
            // then alice's client publishes again.
            let published = RoomEvent.participantPublished(Peer(identifier: "alice", streams: ["webcam"]))
            try await waitUntil("alice publishes again") { bob.allEvents.filter { $0 == published }.count == 2 }
            let events = bob.allEvents
            let unpublished = try #require(events.firstIndex(of: .participantUnpublished(Peer(identifier: "alice"))))
            let failed = try #require(events.firstIndex(of: .mediaError("encoder crashed", endpoint: .subscriber(to: "alice"))))
            let again = try #require(events.lastIndex(of: published))
            #expect(unpublished < failed && failed < again)
            // The backend holds alice's new publisher and no subscription of bob's (he was not told to subscribe).
            #expect(media.endpoints == [publisher])
            // (the server tells bob before it answers alice's publish)
            try await waitUntil("alice's client publishes") { alice.client.localPeer.isPublishing }
        }
    }

    @Test func aScopeFailureDropsEveryEndpointOfTheRoomAndNothingElse() async throws {
        let media = SimulatedMediaBackend()
        let server = try await RoomServer.start(.init(media: media))
        defer { Task { await server.shutdown() } }
        let alice = RoomUser("alice", room: Self.room, url: server.url)
        let bob = RoomUser("bob", room: Self.room, url: server.url)
        let carol = RoomUser("carol", room: "elsewhere", url: server.url)
        try await withDeadline(.seconds(30), "a room's media lost") {
            _ = try await alice.join()
            _ = try await bob.join()
            _ = try await carol.join()
            try await alice.publish(port: 42021)
            try await bob.subscribe(to: "alice", port: 42022)
            try await carol.publish(port: 42023)
            media.fail(scope: .room(Self.room), reason: "media server restarted")
            try await waitUntil("the room's endpoints released") {
                media.endpoints.map(\.room) == ["elsewhere"]
            }
            try await alice.waitForEvent("mediaError") { $0 == .mediaError("media server restarted", endpoint: .publisher) }
            try await bob.waitForEvent("mediaError") {
                $0 == .mediaError("media server restarted", endpoint: .subscriber(to: "alice"))
            }
            // Without an offer provider the clients are asked to renegotiate.
            try await alice.waitForEvent("renegotiationNeeded") { $0 == .renegotiationNeeded([.publisher]) }
            #expect(!carol.allEvents.contains { if case .mediaError = $0 { true } else { false } })
        }
    }
}
