import JSONRPC
import PeerManager
import RoomClient
import RoomProtocol
import RoomServer
import SDP
import SignalingSupport
import TestSupport
import Testing

/// Room recovery through TestSupport's FaultProxy with scaled-down timings (server window 2 s, heartbeat
/// 150 ms): resume without `participantLeft`, outbox replay in order and once, rejoin and republish after a
/// server restart, and a flapping network.
@Suite(.serialized)
struct RoomRecoveryTests {
    static func port(of url: String) -> Int {
        Int(url.split(separator: ":").last!.split(separator: "/").first!)!
    }

    static func configuration(offerProvider: OfferProvider? = nil) -> RoomClient.Configuration {
        .init(requestTimeout: .seconds(10) * deadlineScale, retries: 0, reconnect: .automatic(.fast),
              heartbeat: .every(.milliseconds(150)), offerProvider: offerProvider)
    }

    /// A direct client with neither reconnect nor heartbeat: the witness in the room.
    static func witness(_ user: String, at url: String) -> RoomClient {
        RoomClient(room: Room(username: user, roomName: "r", url: url),
                   configuration: .init(reconnect: .off, heartbeat: .off))
    }

    @Test func aCutInsideTheWindowResumesWithoutParticipantLeftAndReplaysWhatWasMissedOnceInOrder() async throws {
        // Given alice (through a proxy) and bob in a room whose server keeps sessions for 2 s
        let server = try await RoomServer.start(.init(reconnectionWindow: .seconds(2)))
        let proxy = try FaultProxy(targetPort: Self.port(of: server.url))
        defer { proxy.stop() }
        let alice = RoomClient(room: Room(username: "alice", roomName: "r", url: proxy.url(path: "/room")),
                               configuration: Self.configuration())
        let bob = Self.witness("bob", at: server.url)
        try await alice.join()
        try await bob.join()
        let aliceSaw = EventLog(alice)
        let bobSaw = EventLog(bob)

        // When alice's connection is cut (and stays refused for 300 ms), and bob chats meanwhile
        proxy.cutAll(refusingFor: .milliseconds(300))
        try await aliceSaw.wait(for: "alice to reconnect") { $0 == ClientEvent.connectionStateChanged(.reconnecting(attempt: 1)) }
        for n in 1...5 { try await bob.sendMessage("m\(n)") }

        // Then alice resumes, and after the marker she has every message once, in order
        try await aliceSaw.wait(for: "alice to resume") { $0 == ClientEvent.connectionStateChanged(.resumed) }
        try await bob.sendMessage("end")
        try await aliceSaw.wait(for: "the marker") { $0 == ClientEvent.message("end", from: "bob") }
        let messages = aliceSaw.all.compactMap { if case .message(let text, "bob") = $0 { text } else { nil } }
        #expect(messages == ["m1", "m2", "m3", "m4", "m5", "end"])
        // And bob, up to his own marker, never saw alice leave
        try await bobSaw.wait(for: "bob's marker") { $0 == ClientEvent.message("end", from: "bob") }
        #expect(!bobSaw.all.contains(ClientEvent.participantLeft(Peer(identifier: "alice"))))
        #expect(alice.isJoined && server.rooms["r"]?.sorted() == ["alice", "bob"])
        await alice.disconnect()
        await bob.disconnect()
        await server.shutdown()
    }

    @Test func aServerRestartLeadsToARejoinAndARepublish() async throws {
        // Given alice publishing through a proxy, with an offer provider backed by PeerManager
        let first = try await RoomServer.start(.init(reconnectionWindow: .seconds(2)))
        let proxy = try FaultProxy(targetPort: Self.port(of: first.url))
        defer { proxy.stop() }
        let media = RecoveringMedia()
        let alice = RoomClient(room: Room(username: "alice", roomName: "r", url: proxy.url(path: "/room")),
                               configuration: Self.configuration(offerProvider: media.provider))
        try await alice.join()
        let answer = try await alice.publishVideo(sdpOffer: try await media.provider.offer(.publisher))
        try await media.provider.answer(.publisher, answer)
        let aliceSaw = EventLog(alice)

        // When the server is replaced by a new one that knows nothing (state lost) and the connection drops
        let second = try await RoomServer.start(.init(reconnectionWindow: .seconds(2)))
        proxy.retarget(port: Self.port(of: second.url))
        proxy.cutAll()

        // Then alice's resume is refused (40007), she rejoins and republishes through the provider on her own
        try await aliceSaw.wait(for: "the rejoin") { $0 == ClientEvent.connectionStateChanged(.rejoined) }
        #expect(alice.connectionState == .rejoined)
        try await waitUntil("the republish") { media.answered.withLock { $0 } == [.publisher, .publisher] }
        // And someone joining the new server sees alice publishing
        let bob = Self.witness("bob", at: second.url)
        let peers = try await bob.join()
        #expect(peers == [Peer(identifier: "alice", streams: ["webcam"])])
        #expect(aliceSaw.all.filter { $0 == ClientEvent.connectionStateChanged(.rejoined) }.count == 1)
        #expect(!aliceSaw.all.contains { if case .recoveryFailed = $0 { true } else { false } })
        await alice.disconnect()
        await bob.disconnect()
        await first.shutdown()
        await second.shutdown()
    }

    @Test func withoutAnOfferProviderTheRejoinAsksForFreshOffers() async throws {
        // Given alice publishing through a proxy, and subscribed to bob, without an offer provider
        let first = try await RoomServer.start(.init(reconnectionWindow: .seconds(2)))
        let proxy = try FaultProxy(targetPort: Self.port(of: first.url))
        defer { proxy.stop() }
        let media = RecoveringMedia()
        let alice = RoomClient(room: Room(username: "alice", roomName: "r", url: proxy.url(path: "/room")),
                               configuration: Self.configuration())
        let bob = RoomClient(room: Room(username: "bob", roomName: "r", url: first.url),
                             configuration: .init(reconnect: .off, heartbeat: .off))
        try await bob.join()
        _ = try await bob.publishVideo(sdpOffer: try await RecoveringMedia().provider.offer(.publisher))
        try await alice.join()
        _ = try await alice.publishVideo(sdpOffer: try await media.provider.offer(.publisher))
        let subscription = try await media.provider.offer(.subscriber(to: "bob"))
        _ = try await alice.receiveVideo(from: try #require(alice.peer(withIdentifier: "bob")), sdpOffer: subscription)
        let aliceSaw = EventLog(alice)

        // When the server is replaced by one that knows nothing (bob is not there) and the connection drops
        let second = try await RoomServer.start(.init(reconnectionWindow: .seconds(2)))
        proxy.retarget(port: Self.port(of: second.url))
        proxy.cutAll()

        // Then alice rejoins and asks for a fresh offer for her publication only (bob no longer publishes there)
        try await aliceSaw.wait(for: "the request for offers") { $0 == ClientEvent.renegotiationNeeded([.publisher]) }
        let rejoined = try #require(aliceSaw.all.firstIndex(of: ClientEvent.connectionStateChanged(.rejoined)))
        #expect(rejoined < aliceSaw.all.firstIndex(of: ClientEvent.renegotiationNeeded([.publisher]))!)
        #expect(alice.isJoined && alice.peers.isEmpty && alice.localPeer.streams.isEmpty)
        await alice.disconnect()
        await bob.disconnect()
        await first.shutdown()
        await second.shutdown()
    }

    @Test func aFlappingNetworkCausesNoDuplicateJoinsAndLosesNoChatSentAfterAReconnect() async throws {
        // Given alice (through a proxy) and bob in a room
        let server = try await RoomServer.start(.init(reconnectionWindow: .seconds(2)))
        let proxy = try FaultProxy(targetPort: Self.port(of: server.url))
        defer { proxy.stop() }
        let alice = RoomClient(room: Room(username: "alice", roomName: "r", url: proxy.url(path: "/room")),
                               configuration: Self.configuration())
        let bob = Self.witness("bob", at: server.url)
        try await bob.join()
        let bobSaw = EventLog(bob)
        try await alice.join()
        let aliceSaw = EventLog(alice)

        // When the network flaps (cuts, refusals and a stall) and alice chats after every reconnect
        var sent: [String] = []
        for cycle in 1...8 {
            let before = aliceSaw.all.count { $0 == ClientEvent.connectionStateChanged(.resumed) }
            let losses = aliceSaw.all.count { $0 == ClientEvent.connectionStateChanged(.reconnecting(attempt: 1)) }
            if cycle % 3 == 0 {
                proxy.pause()
                try await waitUntil("the stall to be noticed") {
                    aliceSaw.all.count { $0 == ClientEvent.connectionStateChanged(.reconnecting(attempt: 1)) } > losses
                }
                proxy.resume()
            } else {
                proxy.cutAll(refusingFor: .milliseconds(cycle * 20))
            }
            try await waitUntil("reconnect \(cycle)") {
                aliceSaw.all.count { $0 == ClientEvent.connectionStateChanged(.resumed) } > before
            }
            let text = "after reconnect \(cycle)"
            try await alice.sendMessage(text)
            sent.append(text)
        }
        try await alice.sendMessage("end")

        // Then bob got every message once, in order, and alice joined exactly once (she never left either)
        try await bobSaw.wait(for: "alice's marker") { $0 == ClientEvent.message("end", from: "alice") }
        let received = bobSaw.all.compactMap { if case .message(let text, "alice") = $0 { text } else { nil } }
        #expect(received == sent + ["end"])
        #expect(bobSaw.all.count { $0 == ClientEvent.participantJoined(Peer(identifier: "alice")) } == 1)
        #expect(!bobSaw.all.contains(ClientEvent.participantLeft(Peer(identifier: "alice"))))
        #expect(server.rooms["r"]?.sorted() == ["alice", "bob"])
        await alice.disconnect()
        await bob.disconnect()
        await server.shutdown()
    }
}

/// A publisher's media on PeerManager, with an offer provider that renegotiates it after a rejoin.
final class RecoveringMedia: Sendable {
    let peerManager = PeerManager()
    let answered = LockedValue<[RoomEndpoint]>([])

    var provider: OfferProvider {
        let peerManager = peerManager, answered = answered
        return OfferProvider(offer: { endpoint in
            await peerManager.closeConnection("\(endpoint)")
            return try await peerManager.generateOffer(for: "\(endpoint)", media: .audioVideo(direction: .sendonly))
        }, answer: { endpoint, answer in
            try await peerManager.processAnswer(answer, for: "\(endpoint)")
            answered.withLock { $0.append(endpoint) }
        })
    }
}
