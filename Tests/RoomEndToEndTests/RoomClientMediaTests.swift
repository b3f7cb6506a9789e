import PeerManager
import RoomClient
import RoomProtocol
import RoomServer
import SDP
import Testing
import TestSupport

/// RoomClient's media through a PeerManager (issue 34, item 7) against an in-process RoomServer with simulated
/// media, over real sockets: `publish(using:)`, `subscribe(to:using:)`, `subscribeToEveryone(using:)` and
/// `waitForParticipant(named:timeout:)`, with no SDP or candidate glue in the test.
@Suite struct RoomClientMediaTests {
    static let room = "media"

    /// The PeerManager connection of `endpoint` of `client`, once it has applied an answer and `candidates` server
    /// candidates: in the stable state with a remote description holding them.
    func expectNegotiated(_ client: RoomClient, _ media: PeerManager, _ endpoint: RoomEndpoint,
                          candidates: Int = 1) async throws {
        let id = client.mediaConnectionID(for: endpoint)
        try await waitUntil("\(client.room.username)'s \(endpoint) to hold \(candidates) server candidate(s)",
                            asyncCondition: {
            (await media.connection(id)?.remoteDescription?.description.iceCandidates.count ?? 0) >= candidates
        })
        let connection = try #require(await media.connection(id))
        #expect(connection.signalingState == .stable)
        #expect(connection.currentRemoteDescription?.type == .answer)
    }

    @Test func publishAndSubscribeNegotiateAndTrickleWithoutGlue() async throws {
        let backend = SimulatedMediaBackend()
        let server = try await RoomServer.start(.init(media: backend))
        let alice = RoomClient(room: Room(username: "alice", roomName: Self.room, url: server.url))
        let bob = RoomClient(room: Room(username: "bob", roomName: Self.room, url: server.url))
        let aliceMedia = PeerManager(), bobMedia = PeerManager()
        try await withDeadline(.seconds(30), "publish and subscribe") {
            try await alice.join()
            try await bob.join()

            // Alice publishes: the answer is applied and the server's candidate reaches her PeerManager
            try await alice.publish(using: aliceMedia)
            try await expectNegotiated(alice, aliceMedia, .publisher)
            // A local candidate her PeerManager reports is sent to the server's endpoint
            let host = try await aliceMedia.addHostCandidate(address: "127.0.0.1", port: 40100,
                                                            for: alice.mediaConnectionID(for: .publisher))
            let published = MediaEndpointID(room: Self.room, owner: "alice", endpoint: .publisher)
            try await waitUntil("the server to hold alice's candidate", asyncCondition: {
                await backend.remoteDescription(of: published)?.iceCandidates.contains { $0.candidate == host.candidate } == true
            })

            // Bob subscribes to her: the same, for the subscription
            try await waitUntil("bob to know alice publishes") { bob.peer(withIdentifier: "alice")?.isPublishing == true }
            try await bob.subscribe(to: try #require(bob.peer(withIdentifier: "alice")), using: bobMedia)
            try await expectNegotiated(bob, bobMedia, .subscriber(to: "alice"))
            #expect(bob.subscriptions == ["alice"])
            // Subscribing again changes nothing
            try await bob.subscribe(to: try #require(bob.peer(withIdentifier: "alice")), using: bobMedia)
            #expect(await bobMedia.activeConnections == ["alice"])

            // Alice leaves: bob forgets the subscription and closes its connection
            try await alice.leave()
            try await waitUntil("bob to forget alice, and alice to close her connection", asyncCondition: {
                let bobs = await bobMedia.activeConnections, alices = await aliceMedia.activeConnections
                return bobs.isEmpty && alices.isEmpty && bob.subscriptions.isEmpty
            })
        }
        await alice.disconnect()
        await bob.disconnect()
        await server.shutdown()
    }

    @Test func subscribingToEveryoneIncludesALatePublisherAndForgetsOneThatStops() async throws {
        let server = try await RoomServer.start(.init())
        let alice = RoomClient(room: Room(username: "alice", roomName: Self.room, url: server.url))
        let bob = RoomClient(room: Room(username: "bob", roomName: Self.room, url: server.url))
        let carol = RoomClient(room: Room(username: "carol", roomName: Self.room, url: server.url))
        let carolMedia = PeerManager(), bobMedia = PeerManager()
        try await withDeadline(.seconds(30), "subscribing to everyone") {
            try await alice.join()
            try await alice.publish(using: PeerManager())
            try await carol.join()
            // Alice publishes already: subscribed at once
            try await carol.subscribeToEveryone(using: carolMedia)
            #expect(carol.subscriptions == ["alice"])
            try await expectNegotiated(carol, carolMedia, .subscriber(to: "alice"))

            // Bob joins and publishes later: subscribed on his participantPublished
            try await bob.join()
            try await bob.publish(using: bobMedia)
            try await waitUntil("carol to subscribe to bob") { carol.subscriptions.contains("bob") }
            try await expectNegotiated(carol, carolMedia, .subscriber(to: "bob"))

            // Bob stops publishing: forgotten; he publishes again: subscribed again
            try await bob.unpublishVideo()
            try await waitUntil("carol to forget bob", asyncCondition: {
                let open = await carolMedia.activeConnections
                return !open.contains("bob") && !carol.subscriptions.contains("bob")
            })
            try await waitUntil("bob's publisher connection to close", asyncCondition: {
                await bobMedia.activeConnections.isEmpty
            })
            try await bob.publish(using: bobMedia)
            try await waitUntil("carol to subscribe to bob again") { carol.subscriptions.contains("bob") }
            try await expectNegotiated(carol, carolMedia, .subscriber(to: "bob"))
            #expect(carol.subscriptions == ["alice", "bob"])
        }
        for client in [alice, bob, carol] { await client.disconnect() }
        await server.shutdown()
    }

    @Test func waitForParticipantReturnsOnJoinAndThrowsOnTimeout() async throws {
        let server = try await RoomServer.start(.init())
        let alice = RoomClient(room: Room(username: "alice", roomName: Self.room, url: server.url))
        let bob = RoomClient(room: Room(username: "bob", roomName: Self.room, url: server.url))
        try await withDeadline(.seconds(30), "waiting for participants") {
            try await alice.join()
            // Nobody comes: the wait ends at its timeout, naming who is missing
            await #expect(throws: ParticipantWaitError.timedOut(missing: "carol")) {
                try await alice.waitForParticipant(named: "carol", timeout: .milliseconds(200))
            }
            // Bob joins while alice waits: the wait returns him
            let waiting = Task { try await alice.waitForParticipant(named: "bob", timeout: .seconds(20)) }
            try await bob.join()
            #expect(try await waiting.value == Peer(identifier: "bob"))
            // Already there: at once
            #expect(try await alice.waitForParticipant(named: "bob", timeout: .milliseconds(1)).identifier == "bob")
            #expect(try await alice.waitForParticipants(ParticipantPresence(count: 1), timeout: .seconds(1)).count == 1)
            // Not in the room: refused
            try await alice.leave()
            await #expect(throws: ParticipantWaitError.notInRoom) {
                try await alice.waitForParticipant(named: "bob", timeout: .seconds(1))
            }
        }
        await alice.disconnect()
        await bob.disconnect()
        await server.shutdown()
    }
}
