import JSONRPC
import PeerManager
import RoomClient
import RoomServer
import SDP
import Testing

/// The room example of docs/examples.md ("Using the libraries", once the README's), kept compiling and true: an embedded room server, two clients, a published
/// stream answered by the simulated media backend.
@Suite struct ReadmeRoomExampleTests {
    @Test func readmeRoomExampleWorksAsWritten() async throws {
        let server = try await RoomServer.start(.init(host: "127.0.0.1", port: 0))
        let alice = RoomClient(room: Room(username: "alice", roomName: "demo", url: server.url))
        let bob = RoomClient(room: Room(username: "bob", roomName: "demo", url: server.url))
        try await alice.connect()
        _ = try await alice.join()
        let bobEvents = bob.events
        try await bob.connect()
        let peers = try await bob.join()                         // [alice]

        let peerManager = PeerManager()
        let offer = try await peerManager.generateOffer(for: "alice", media: .audioVideo(direction: .sendonly))
        let answer = try await alice.publishVideo(sdpOffer: offer, loopback: false)
        try await peerManager.processAnswer(answer, for: "alice")

        var published: Peer?
        for try await event in bobEvents {
            if case .participantPublished(let peer) = event { published = peer; break }
        }
        #expect(peers.map(\.identifier) == ["alice"])
        #expect(published?.identifier == "alice")
        await alice.disconnect()
        await bob.disconnect()
        await server.shutdown()
    }
}
