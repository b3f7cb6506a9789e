import PeerManager
import RoomClient
import RoomProtocol
import RoomServer
import SDP
import Testing
import TestSupport

/// Three RoomClients against an in-process RoomServer over real sockets on 127.0.0.1, with the media negotiated
/// through PeerManager and the simulated media backend. After every step one user sends a chat marker, and each
/// user's events before it are compared whole: each event arrives once, in order, and nothing else arrives
/// (docs/testing.md#principles).
@Suite struct RoomEndToEndTests {
    static let room = "e2e"
    let media = SimulatedMediaBackend()

    /// Sends `marker` as chat from `sender` and returns what each of `users` received before it, by name.
    func barrier(_ marker: String, from sender: RoomUser, to users: [RoomUser]) async throws -> [String: Received] {
        try await sender.client.sendMessage(marker)
        var received: [String: Received] = [:]
        for user in users { received[user.name] = try await user.received(before: marker, from: sender.name) }
        return received
    }

    /// Each user's peers model (and its own publishing) equals the server's state: the room's members and the
    /// publisher endpoints at the media backend.
    func expectModelsMatch(_ server: RoomServer, _ users: [RoomUser]) {
        let members = server.rooms[Self.room] ?? []
        let publishers = Set(media.endpoints.filter { $0.endpoint == .publisher }.map(\.owner))
        for user in users {
            let expected = members.filter { $0 != user.name }.map {
                Peer(identifier: $0, streams: publishers.contains($0) ? [RoomNaming.defaultStreamId] : [])
            }
            #expect(user.client.peers == expected, "\(user.name)'s peers")
            #expect(user.client.localPeer.isPublishing == publishers.contains(user.name), "\(user.name) publishes")
        }
    }

    @Test func threeUsersPublishSubscribeTrickleChatAndDepart() async throws {
        let server = try await RoomServer.start(.init(host: "127.0.0.1", port: 0, media: media))
        let alice = RoomUser("alice", room: Self.room, url: server.url)
        let bob = RoomUser("bob", room: Self.room, url: server.url)
        let carol = RoomUser("carol", room: Self.room, url: server.url)
        let everyone = [alice, bob, carol]
        let webcam = RoomNaming.defaultStreamId

        try await withDeadline(.seconds(30), "the end-to-end room") { [self] in
            // Three users join
            #expect(try await alice.join() == [])
            #expect(try await bob.join() == [Peer(identifier: "alice")])
            #expect(try await carol.join() == [Peer(identifier: "alice"), Peer(identifier: "bob")])
            var got = try await barrier("hello from carol", from: carol, to: everyone)
            #expect(got["alice"] == Received(events: [.participantJoined(Peer(identifier: "bob")),
                                                      .participantJoined(Peer(identifier: "carol"))]))
            #expect(got["bob"] == Received(events: [.participantJoined(Peer(identifier: "carol"))]))
            #expect(got["carol"] == Received())

            // Two publish; their server candidates reach their PeerManagers, their own candidates the backend
            try await alice.publish(port: 40001)
            got = try await barrier("alice is live", from: alice, to: everyone)
            #expect(got["alice"] == Received(candidates: [.publisher]))
            let alicePublished = RoomEvent.participantPublished(Peer(identifier: "alice", streams: [webcam]))
            #expect(got["bob"] == Received(events: [alicePublished]))
            #expect(got["carol"] == got["bob"])
            try await bob.publish(port: 40002)
            got = try await barrier("bob is live", from: bob, to: everyone)
            #expect(got["bob"] == Received(candidates: [.publisher]))
            let bobPublished = RoomEvent.participantPublished(Peer(identifier: "bob", streams: [webcam]))
            #expect(got["alice"] == Received(events: [bobPublished]))
            #expect(got["carol"] == got["alice"])

            // Everyone subscribes to each publisher
            try await alice.subscribe(to: "bob", port: 40003)
            try await bob.subscribe(to: "alice", port: 40004)
            try await carol.subscribe(to: "alice", port: 40005)
            try await carol.subscribe(to: "bob", port: 40006)
            got = try await barrier("watching", from: carol, to: everyone)
            #expect(got["alice"] == Received(candidates: [.subscriber(to: "bob")]))
            #expect(got["bob"] == Received(candidates: [.subscriber(to: "alice")]))
            #expect(got["carol"] == Received(candidates: [.subscriber(to: "alice"), .subscriber(to: "bob")]))
            let trickled: [(String, RoomEndpoint, Int)] = [
                ("alice", .publisher, 40001), ("bob", .publisher, 40002), ("alice", .subscriber(to: "bob"), 40003),
                ("bob", .subscriber(to: "alice"), 40004), ("carol", .subscriber(to: "alice"), 40005),
                ("carol", .subscriber(to: "bob"), 40006),
            ]
            for (owner, endpoint, port) in trickled {
                let id = MediaEndpointID(room: Self.room, owner: owner, endpoint: endpoint)
                let remote = try #require(await media.remoteDescription(of: id), "\(id)")
                #expect(remote.media.flatMap { $0.candidates.map(\.port) } == [port], "\(id)")
            }
            expectModelsMatch(server, everyone)

            // A private message reaches its addressee only
            try await bob.client.sendPrivateMessage("psst", to: "carol")
            got = try await barrier("after the whisper", from: bob, to: everyone)
            #expect(got["carol"] == Received(events: [.privateMessage("psst", from: "bob")]))
            #expect(got["alice"] == Received())
            #expect(got["bob"] == Received())

            // Bob unpublishes: the subscriptions to him end with his publisher endpoint
            try await bob.client.unpublishVideo()
            await bob.media.closeConnection("bob")
            got = try await barrier("bob is off", from: bob, to: everyone)
            #expect(got["alice"] == Received(events: [.participantUnpublished(Peer(identifier: "bob"))]))
            #expect(got["carol"] == got["alice"])
            #expect(got["bob"] == Received())
            expectModelsMatch(server, everyone)

            // Carol leaves; nothing reaches her afterwards
            try await carol.client.leave()
            got = try await barrier("carol left", from: alice, to: [alice, bob])
            #expect(got["alice"] == Received(events: [.participantLeft(Peer(identifier: "carol"))]))
            #expect(got["bob"] == got["alice"])
            #expect(try await carol.receivedUntilDisconnected() == Received())
            #expect(carol.client.peers == [])

            // The application evicts bob: he is told, then his socket closes
            #expect(await server.evict("bob", from: Self.room))
            #expect(try await bob.receivedUntilDisconnected() == Received(events: [.participantEvicted]))
            #expect(bob.client.peers == [])
            got = try await barrier("alone", from: alice, to: [alice])
            #expect(got["alice"] == Received(events: [.participantLeft(Peer(identifier: "bob"))]))

            // The end: the server holds alice and her publisher, as her model says
            #expect(server.rooms == [Self.room: ["alice"]])
            #expect(media.endpoints == [MediaEndpointID(room: Self.room, owner: "alice", endpoint: .publisher)])
            expectModelsMatch(server, [alice])
        }
        for user in everyone { await user.client.disconnect() }
        await server.shutdown()
    }
}
