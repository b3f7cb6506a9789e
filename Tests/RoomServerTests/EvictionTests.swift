import JSONRPC
import RoomServer
import SignalingSupport
import Testing
import TestSupport

/// docs/architecture.md#server-sessions: a lost socket starts the reconnection window; when it ends the participant is
/// evicted.
@Suite struct EvictionTests {
    @Test func droppedParticipantIsEvictedWhenTheWindowEnds() async throws {
        // Given alice and bob in a room on a manual clock with a 5 s window
        let clock = ManualClock()
        let server = RoomServer(configuration: .init(media: TestMediaBackend(), reconnectionWindow: .seconds(5),
                                                     clock: clock))
        let events = server.events
        let alice = RoomPeer.connected(to: server), bob = RoomPeer.connected(to: server)
        try await alice.join("alice")
        try await bob.join("bob")
        #expect(try await alice.notification("participantJoined") == ["id": "bob"])
        let timersBefore = clock.pendingTimers

        // When bob's socket drops
        await bob.connection.close(code: 1006, reason: "dropped")
        try await waitUntil("the reconnection window to start") { clock.pendingTimers > timersBefore }

        // Then within the window bob is still there (alice's marker arrives first) ...
        clock.advance(by: .seconds(4))
        try await alice.result("sendMessage", ["message": "marker", "userMessage": "alice", "roomMessage": "room1"])
        #expect(try await alice.notification("sendMessage")["message"] == "marker")
        #expect(server.rooms == ["room1": ["alice", "bob"]])

        // ... and when it ends, alice gets participantLeft
        clock.advance(by: .seconds(1))
        #expect(try await alice.notification("participantLeft") == ["name": "bob"])
        #expect(server.rooms == ["room1": ["alice"]])
        let departure = try await withDeadline { () -> RoomServerEvent? in
            for try await event in events { if case .participantLeft = event { return event } }
            return nil
        }
        #expect(departure == .participantLeft(room: "room1", user: "bob", departure: .evicted))
    }

    @Test func closeSessionEvictsAtOnce() async throws {
        let server = RoomServer(configuration: .init(media: TestMediaBackend()))
        let alice = RoomPeer.connected(to: server), bob = RoomPeer.connected(to: server)
        try await alice.join("alice")
        try await bob.join("bob")
        _ = try await bob.request("closeSession")
        #expect(try await alice.notification("participantJoined") == ["id": "bob"])
        #expect(try await alice.notification("participantLeft") == ["name": "bob"])
    }

    @Test func reconnectingWithinTheWindowKeepsTheParticipantAndReplaysWhatHeMissed() async throws {
        // Given bob in a room, whose socket drops
        let clock = ManualClock()
        let server = RoomServer(configuration: .init(media: TestMediaBackend(), reconnectionWindow: .seconds(5),
                                                     clock: clock))
        let alice = RoomPeer.connected(to: server), bob = RoomPeer.connected(to: server)
        try await alice.join("alice")
        let sid = try #require(try await bob.result("joinRoom", ["user": "bob", "room": "room1"])["sessionId"])
        let timersBefore = clock.pendingTimers
        await bob.connection.close(code: 1006, reason: "dropped")
        try await waitUntil("the reconnection window to start") { clock.pendingTimers > timersBefore }

        // And alice chats while he is away
        try await alice.result("sendMessage", ["message": "away", "userMessage": "alice", "roomMessage": "room1"])

        // When he resumes his session on a new socket, and the window's time passes
        let again = RoomPeer.connected(to: server)
        #expect(try await again.result("connect", ["sessionId": sid])["value"] == "reconnection successful")
        clock.advance(by: .seconds(10))

        // Then the chat he missed is replayed on the new socket
        #expect(try await again.notification("sendMessage") == ["room": "room1", "user": "alice", "message": "away"])

        // And he is still bob in room1: his chat goes out under his name, and alice saw no participantLeft
        try await again.result("sendMessage", ["message": "back", "userMessage": "bob", "roomMessage": "room1"])
        #expect(try await alice.notification("participantJoined") == ["id": "bob"])
        #expect(try await alice.notification("sendMessage")["message"] == "away")
        #expect(try await alice.notification("sendMessage") == ["room": "room1", "user": "bob", "message": "back"])
        #expect(server.rooms == ["room1": ["alice", "bob"]])
    }

    @Test func applicationEvictionNotifiesTheEvictedAndTheOthers() async throws {
        let server = RoomServer(configuration: .init(media: TestMediaBackend()))
        let alice = RoomPeer.connected(to: server), bob = RoomPeer.connected(to: server)
        try await alice.join("alice")
        try await bob.join("bob")
        #expect(await server.evict("bob", from: "room1"))
        #expect(try await bob.notification("participantEvicted") == [:])
        #expect(try await bob.end().code == 1000)
        #expect(try await alice.notification("participantJoined") == ["id": "bob"])
        #expect(try await alice.notification("participantLeft") == ["name": "bob"])
        #expect(await server.evict("bob", from: "room1") == false)
    }
}
