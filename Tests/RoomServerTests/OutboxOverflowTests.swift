import JSONRPC
import RoomServer
import SignalingSupport
import Testing
import TestSupport

/// docs/architecture.md#server-sessions: a session in its reconnection window has its notifications queued in a bounded
/// outbox; one more than the limit ends the session, so a `connect` naming it gets 40007.
@Suite struct OutboxOverflowTests {
    @Test func roomOutboxOverflowEndsTheSession() async throws {
        // Given alice and bob in a room, with outboxes of 2 notifications, and bob's socket dropped
        let clock = ManualClock()
        let server = RoomServer(configuration: .init(media: TestMediaBackend(),
                                                     limits: .init(maxQueuedNotifications: 2),
                                                     reconnectionWindow: .seconds(5), clock: clock))
        let alice = RoomPeer.connected(to: server), bob = RoomPeer.connected(to: server)
        try await alice.join("alice")
        let sid = try #require(try await bob.result("joinRoom", ["user": "bob", "room": "room1"])["sessionId"])
        #expect(try await alice.notification("participantJoined") == ["id": "bob"])
        let timersBefore = clock.pendingTimers
        await bob.connection.close(code: 1006, reason: "dropped")
        try await waitUntil("the reconnection window to start") { clock.pendingTimers > timersBefore }

        // When alice sends two messages, bob's outbox is full but his session lives on
        for message in ["one", "two"] {
            try await alice.result("sendMessage", ["message": .string(message), "userMessage": "alice",
                                                   "roomMessage": "room1"])
            #expect(try await alice.notification("sendMessage")["message"] == .string(message))
        }
        #expect(server.rooms == ["room1": ["alice", "bob"]])

        // And a third one overflows it: bob's session ends at once (well within the window)
        try await alice.result("sendMessage", ["message": "three", "userMessage": "alice", "roomMessage": "room1"])
        #expect(try await alice.notification("sendMessage")["message"] == "three")
        #expect(try await alice.notification("participantLeft") == ["name": "bob"])
        #expect(server.rooms == ["room1": ["alice"]])

        // Then bob's client cannot resume it
        let again = RoomPeer.connected(to: server)
        #expect(try await again.error("connect", ["sessionId": sid])["code"] == 40007)
    }
}
