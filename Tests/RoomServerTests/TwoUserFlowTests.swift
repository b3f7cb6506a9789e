import JSONRPC
import RoomProtocol
import RoomServer
import SignalingSupport
import Testing
import TestSupport

/// The two-user session of docs/wire-protocol.md#room, message by message, over in-memory connections.
@Suite struct TwoUserFlowTests {
    let media = TestMediaBackend()
    let server: RoomServer

    init() { server = RoomServer(configuration: .init(media: media)) }

    @Test func twoUsersJoinPublishReceiveTrickleChatAndLeave() async throws {
        // Given alice in room1
        let alice = RoomPeer.connected(to: server)
        let aliceJoin = try await alice.request("joinRoom", ["user": "alice", "room": "room1", "dataChannels": false])
        let sidA = try #require(aliceJoin["result"]?["sessionId"]?.stringValue)
        #expect(aliceJoin["result"] == ["value": [], "sessionId": .string(sidA)])

        // When alice publishes, she gets the answer and her endpoint's server candidate (endpointName = her name)
        let published = try await alice.result("publishVideo", ["sdpOffer": "offer-a", "doLoopback": false])
        let aliceEndpoint = MediaEndpointID(room: "room1", owner: "alice", endpoint: .publisher)
        let expectedAnswer = TestMediaBackend.answer(for: aliceEndpoint)
        #expect(published == ["sdpAnswer": .string(expectedAnswer), "sessionId": .string(sidA)])
        let aliceCandidate = try await alice.notification("iceCandidate")
        #expect(aliceCandidate["endpointName"] == "alice")
        #expect(aliceCandidate["candidate"]?.stringValue == TestMediaBackend.serverCandidate.candidate)

        // And trickles a candidate to her publisher
        #expect(try await alice.result("onIceCandidate", [
            "endpointName": "alice", "candidate": "candidate:a", "sdpMid": "audio", "sdpMLineIndex": 0,
        ]) == ["sessionId": .string(sidA)])

        // Then bob's join lists alice with her stream, and alice hears of bob
        let bob = RoomPeer.connected(to: server)
        #expect(try await bob.join("bob") == [["id": "alice", "streams": [["id": "webcam"]]]])
        #expect(try await alice.notification("participantJoined") == ["id": "bob"])

        // When bob subscribes and trickles a candidate while the answer is still being made
        media.hold()
        let receiveID = try await bob.send("receiveVideoFrom", ["sender": "alice_webcam", "sdpOffer": "offer-b"])
        try await waitUntil("the subscription at the backend") { media.waitingCalls == 1 }
        #expect(try await bob.result("onIceCandidate", [
            "endpointName": "alice", "candidate": "candidate:b", "sdpMid": "video", "sdpMLineIndex": 1,
        ])["sessionId"] != nil)
        media.open()

        // Then the answer comes, the early candidate reached the created endpoint, and bob gets its server candidate
        let bobEndpoint = MediaEndpointID(room: "room1", owner: "bob", endpoint: .subscriber(to: "alice"))
        let received = try await bob.response(receiveID)
        #expect(received["result"]?["sdpAnswer"]?.stringValue == TestMediaBackend.answer(for: bobEndpoint))
        #expect(try await bob.notification("iceCandidate")["endpointName"] == "alice")
        let trickled = media.record.withLock { $0.candidates.map { "\($0.1): \($0.0.candidate)" } }
        #expect(trickled == ["\(aliceEndpoint): candidate:a", "\(bobEndpoint): candidate:b"])

        // When alice chats, everyone gets it, herself included
        try await alice.result("sendMessage", ["message": "hi", "userMessage": "alice", "roomMessage": "room1"])
        let chat: JSONValue = ["room": "room1", "user": "alice", "message": "hi"]
        #expect(try await alice.notification("sendMessage") == chat)
        #expect(try await bob.notification("sendMessage") == chat)

        // When bob whispers to alice, only alice gets it (bob's next notification is his own marker)
        try await bob.result("sendPrivateMessage", ["to": "alice", "message": "psst"])
        #expect(try await alice.notification("privateMessage") == ["user": "bob", "message": "psst"])
        try await bob.result("sendMessage", ["message": "marker", "userMessage": "bob", "roomMessage": "room1"])
        #expect(try await bob.notification("sendMessage")["message"] == "marker")
        #expect(try await alice.notification("sendMessage")["message"] == "marker")

        // When alice unpublishes, bob hears it and both endpoints are released
        try await alice.result("unpublishVideo")
        #expect(try await bob.notification("participantUnpublished") == ["name": "alice"])
        #expect(Set(media.record.withLock { $0.released }) == [aliceEndpoint, bobEndpoint])

        // When bob leaves: the reply, then his socket closes with 1000, and alice gets participantLeft
        let left = try await bob.request("leaveRoom")
        #expect(left["result"]?["sessionId"] != nil)
        #expect(try await bob.end().code == 1000)
        #expect(try await alice.notification("participantLeft") == ["name": "bob"])
        #expect(server.rooms == ["room1": ["alice"]])
    }

    @Test func loopbackReachesTheBackend() async throws {
        let alice = RoomPeer.connected(to: server)
        try await alice.join("alice")
        try await alice.result("publishVideo", ["sdpOffer": "offer", "doLoopback": true])
        #expect(media.record.withLock { $0.loopbacks } == [true])
    }

    @Test func candidatesBeforeReceiveAreQueuedUntilTheEndpointExists() async throws {
        let alice = RoomPeer.connected(to: server), bob = RoomPeer.connected(to: server)
        try await alice.join("alice")
        try await alice.result("publishVideo", ["sdpOffer": "offer", "doLoopback": false])
        try await bob.join("bob")
        // Given a candidate for the subscription before receiveVideoFrom was even sent
        try await bob.result("onIceCandidate",
                             ["endpointName": "alice", "candidate": "early", "sdpMid": "v", "sdpMLineIndex": 0])
        #expect(media.record.withLock { $0.candidates.isEmpty })
        // When the subscription is made, the backend gets it
        try await bob.result("receiveVideoFrom", ["sender": "alice_webcam", "sdpOffer": "offer"])
        #expect(media.record.withLock { $0.candidates.map(\.0.candidate) } == ["early"])
    }

    @Test func roomClosedByTheApplicationDisconnectsMembersWith1000() async throws {
        let events = server.events
        let alice = RoomPeer.connected(to: server), bob = RoomPeer.connected(to: server)
        try await alice.join("alice")
        try await bob.join("bob")
        #expect(await server.closeRoom("room1"))
        #expect(try await alice.notification("participantJoined") == ["id": "bob"])
        #expect(try await alice.notification("roomClosed") == ["room": "room1"])
        #expect(try await bob.notification("roomClosed") == ["room": "room1"])
        #expect(try await alice.end().code == 1000)
        #expect(try await bob.end().code == 1000)
        #expect(server.rooms.isEmpty)
        let seen = try await withDeadline { () -> [RoomServerEvent] in
            var seen: [RoomServerEvent] = []
            for try await event in events {
                seen.append(event)
                if case .roomClosed = event { break }
            }
            return seen
        }
        #expect(seen == [
            .roomCreated(room: "room1"), .participantJoined(room: "room1", user: "alice"),
            .participantJoined(room: "room1", user: "bob"),
            .participantLeft(room: "room1", user: "alice", departure: .roomClosed),
            .participantLeft(room: "room1", user: "bob", departure: .roomClosed), .roomClosed(room: "room1"),
        ])
    }
}
