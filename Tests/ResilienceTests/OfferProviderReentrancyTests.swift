import JSONRPC
import RoomClient
import RoomProtocol
import RoomServer
import SignalingSupport
import TestSupport
import Testing

/// No user code runs under a lock of the client (docs/architecture.md#callbacks): the offer provider a rejoin calls may
/// read the room client and call it.
@Suite(.serialized)
struct OfferProviderReentrancyTests {
    @Test func theOfferProviderCanReadTheClientAndCallItDuringARejoin() async throws {
        // Given alice publishing through a proxy, with an offer provider that reads her client and chats from it
        let first = try await RoomServer.start(.init(reconnectionWindow: .seconds(2)))
        let proxy = try FaultProxy(targetPort: RoomRecoveryTests.port(of: first.url))
        defer { proxy.stop() }
        let media = RecoveringMedia()
        let client = LockedValue<RoomClient?>(nil)
        let log = LockedValue<[String]>([])
        let provider = OfferProvider(offer: { endpoint in
            if let alice = (client.withLock { $0 }) {
                log.withLock { $0.append("offer for \(endpoint) while \(alice.connectionState), joined: \(alice.isJoined)") }
            }
            return try await media.provider.offer(endpoint)
        }, answer: { endpoint, answer in
            try await media.provider.answer(endpoint, answer)
            try await client.withLock { $0 }?.sendMessage("republished")
            log.withLock { $0.append("answered and chatted") }
        })
        let alice = RoomClient(room: Room(username: "alice", roomName: "r", url: proxy.url(path: "/room")),
                               configuration: RoomRecoveryTests.configuration(offerProvider: provider))
        try await alice.join()
        _ = try await alice.publishVideo(sdpOffer: try await media.provider.offer(.publisher))
        client.withLock { $0 = alice }

        // When the server is replaced by one that knows nothing and the connection drops
        let second = try await RoomServer.start(.init(reconnectionWindow: .seconds(2)))
        let bob = RoomRecoveryTests.witness("bob", at: second.url)
        proxy.retarget(port: RoomRecoveryTests.port(of: second.url))
        proxy.cutAll()

        // Then the rejoin's provider read the client and its own call through it went out
        try await waitUntil("the provider's chat") { log.withLock { $0 }.count == 2 }
        #expect(log.withLock { $0 } == ["offer for publisher while rejoined, joined: true", "answered and chatted"])
        let peers = try await bob.join()
        #expect(peers == [Peer(identifier: "alice", streams: ["webcam"])])
        await alice.disconnect()
        await bob.disconnect()
        await first.shutdown()
        await second.shutdown()
    }
}
