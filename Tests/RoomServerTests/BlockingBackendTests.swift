import Foundation
import JSONRPC
import RoomProtocol
import RoomServer
import SignalingSupport
import Testing
import TestSupport

/// Room handlers run on the event loop's service thread, but the application code they call does not: a media
/// backend that blocks its thread (a synchronous call to a media server, say) holds up no other room.
@Suite struct BlockingBackendTests {
    /// A media backend whose `createPublisher` blocks its thread until released (at most 10 s).
    final class BlockingBackend: MediaBackend {
        let release = DispatchSemaphore(value: 0)
        let entered = Counter()
        let simulated = SimulatedMediaBackend()

        func createPublisher(_ endpoint: MediaEndpointID, offer: String, loopback: Bool) async throws -> MediaAnswer {
            entered.increment()
            _ = release.wait(timeout: .now() + 10)
            return MediaAnswer(sdp: "blocked-answer")
        }
        func createSubscriber(_ endpoint: MediaEndpointID, offer: String) async throws -> MediaAnswer {
            try await simulated.createSubscriber(endpoint, offer: offer)
        }
        func addCandidate(_ candidate: MediaCandidate, to endpoint: MediaEndpointID) async throws {}
        func release(_ endpoint: MediaEndpointID) async {}
    }

    @Test func aBackendThatBlocksDoesNotHoldUpChatInAnotherRoom() async throws {
        // Given a server whose backend blocks, and alice publishing in room a (her publish is stuck in it)
        let backend = BlockingBackend()
        let server = try await RoomServer.start(.init(media: backend))
        let alice = try await RoomPeer.dialing(server.url)
        try await alice.join("alice", "a")
        let publishID = try await alice.send("publishVideo", ["sdpOffer": "offer", "doLoopback": false])
        try await waitUntil("the backend to block") { backend.entered.count == 1 }

        // When bob and carol chat in room b meanwhile
        let bob = try await RoomPeer.dialing(server.url)
        let carol = try await RoomPeer.dialing(server.url)
        try await bob.join("bob", "b")
        try await carol.join("carol", "b")
        for index in 0..<20 {
            try await bob.result("sendMessage", ["message": .string("m\(index)"), "userMessage": "bob", "roomMessage": "b"])
            #expect(try await carol.notification("sendMessage")["message"] == .string("m\(index)"))
        }

        // Then all of it happened while the backend still blocked; released, alice gets her answer
        #expect(try await alice.unreadNotificationsAndNoResponseYet(publishID))
        backend.release.signal()
        let answer = try await alice.response(publishID, skippingOthers: true)
        #expect(answer["result"]?["sdpAnswer"] == "blocked-answer")
        await server.shutdown()
    }
}

extension RoomPeer {
    /// True when the response to `id` has not arrived (checked without waiting: a ping round trip).
    fileprivate func unreadNotificationsAndNoResponseYet(_ id: Int) async throws -> Bool {
        let ping = try await send("ping", ["interval": 10_000])
        while true {
            let message = try await next()
            if message["id"] == .int(ping) { return true }
            if message["id"] == .int(id) { return false }
        }
    }
}
