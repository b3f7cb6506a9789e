import JSONRPC
import RoomProtocol
import RoomServer
import SignalingSupport
import Testing
import TestSupport

/// The error codes of docs/wire-protocol.md#room-errors and the gap codes of docs/wire-protocol.md#deviations.
@Suite struct ErrorPathTests {
    let server = RoomServer(configuration: .init(media: TestMediaBackend()))

    /// A room with alice (publishing) and bob (not publishing).
    func aliceAndBob() async throws -> (RoomPeer, RoomPeer) {
        let alice = RoomPeer.connected(to: server), bob = RoomPeer.connected(to: server)
        try await alice.join("alice")
        try await alice.result("publishVideo", ["sdpOffer": "offer", "doLoopback": false])
        try await bob.join("bob")
        return (alice, bob)
    }

    @Test func duplicateUserGets104WithKurentosText() async throws {
        _ = try await aliceAndBob()
        let error = try await RoomPeer.connected(to: server).error("joinRoom", ["user": "bob", "room": "room1"])
        #expect(error["code"] == 104)
        #expect(error["message"] == "User 'bob' already exists in room 'room1'")
        #expect(error["data"]?["sessionId"]?.stringValue != nil)
    }

    @Test func receivingFromANonPublisherOrYourselfGets105() async throws {
        let (alice, _) = try await aliceAndBob()
        #expect(try await alice.error("receiveVideoFrom", ["sender": "bob_webcam", "sdpOffer": "o"])["code"] == 105)
        #expect(try await alice.error("receiveVideoFrom", ["sender": "alice_webcam", "sdpOffer": "o"])["code"] == 105)
    }

    @Test func unknownSenderAndUnknownPrivateTargetGet102() async throws {
        let (_, bob) = try await aliceAndBob()
        #expect(try await bob.error("receiveVideoFrom", ["sender": "carol_webcam", "sdpOffer": "o"])["code"] == 102)
        #expect(try await bob.error("unsubscribeFromVideo", ["sender": "carol_webcam"])["code"] == 102)
        #expect(try await bob.error("sendPrivateMessage", ["to": "carol", "message": "m"])["code"] == 102)
    }

    @Test func aCandidateForSomeoneNotInTheRoomAndAnUnsubscribeFromWhatIsNotReceivedAreFine() async throws {
        // As a stock Kurento server: the candidate is queued for a later subscription, the unsubscribe only logged
        let (_, bob) = try await aliceAndBob()
        let answer = try await bob.result("onIceCandidate", [
            "endpointName": "carol", "candidate": "c", "sdpMid": "v", "sdpMLineIndex": 0,
        ])
        #expect(answer.objectValue?.keys.sorted() == ["sessionId"])
        #expect(try await bob.result("unsubscribeFromVideo", ["sender": "alice_webcam"]).objectValue?.keys.sorted()
            == ["sessionId"])
    }

    @Test func spoofedSendMessageIsRefusedAndReachesNobody() async throws {
        let (alice, bob) = try await aliceAndBob()
        let asAlice: JSONValue = ["message": "x", "userMessage": "alice", "roomMessage": "room1"]
        let elsewhere: JSONValue = ["message": "x", "userMessage": "bob", "roomMessage": "other"]
        #expect(try await bob.error("sendMessage", asAlice)["code"] == 102)
        #expect(try await bob.error("sendMessage", elsewhere)["code"] == 202)
        try await bob.result("sendMessage", ["message": "marker", "userMessage": "bob", "roomMessage": "room1"])
        try await alice.notification("iceCandidate")  // her publisher's server candidate
        #expect(try await alice.notification("participantJoined") == ["id": "bob"])
        #expect(try await alice.notification("sendMessage") == ["room": "room1", "user": "bob", "message": "marker"])
    }

    @Test func requestsBeforeJoiningAreRefused() async throws {
        let peer = RoomPeer.connected(to: server)
        #expect(try await peer.error("publishVideo", ["sdpOffer": "o", "doLoopback": false])["code"] == 102)
        #expect(try await peer.error("leaveRoom")["code"] == 102)
    }

    @Test func missingOrMistypedParamsGet32602NamingTheParam() async throws {
        let peer = RoomPeer.connected(to: server)
        let missingRoom = try await peer.error("joinRoom", ["user": "alice"])
        #expect(missingRoom["code"] == -32602)
        #expect(missingRoom["data"]?.jsonText.contains("'room'") == true)
        try await peer.join("alice")
        let noLoopback = try await peer.error("publishVideo", ["sdpOffer": "o"])
        #expect(noLoopback["code"] == -32602)
        #expect(noLoopback["data"]?.jsonText.contains("doLoopback") == true)
        let badSender = try await peer.error("receiveVideoFrom", ["sender": "alice", "sdpOffer": "o"])
        #expect(badSender["code"] == -32602)
        #expect(badSender["data"]?.jsonText.contains("sender") == true)
    }

    @Test(arguments: ["", "bad_name", "tab\tname"])
    func invalidUserNamesGet999(name: String) async throws {
        let error = try await RoomPeer.connected(to: server).error("joinRoom", ["user": .string(name), "room": "r"])
        #expect(error["code"] == 999)
    }

    @Test func secondJoinOnOneSessionGets101() async throws {
        let peer = RoomPeer.connected(to: server)
        try await peer.join("alice")
        let error = try await peer.error("joinRoom", ["user": "alice2", "room": "room2"])
        #expect(error["code"] == 101)
        #expect(error["message"] == "already in room room1")
    }

    @Test func roomFullGets201AndTooManyRoomsGets204WithTheLimit() async throws {
        let server = RoomServer(configuration: .init(
            media: TestMediaBackend(), limits: .init(maxRooms: 1, maxParticipantsPerRoom: 1)))
        try await RoomPeer.connected(to: server).join("alice")
        let full = try await RoomPeer.connected(to: server).error("joinRoom", ["user": "bob", "room": "room1"])
        #expect(full["code"] == 201)
        #expect(full["message"]?.stringValue?.contains("limit 1") == true)
        let tooMany = try await RoomPeer.connected(to: server).error("joinRoom", ["user": "bob", "room": "room2"])
        #expect(tooMany["code"] == 204)
        #expect(tooMany["message"]?.stringValue?.contains("limit 1") == true)
    }

    @Test func refusedJoinGets401AndLeavesNoTrace() async throws {
        let server = RoomServer(configuration: .init(media: TestMediaBackend(),
                                                     authorizeJoin: { $0.user != "mallory" }))
        let error = try await RoomPeer.connected(to: server).error("joinRoom", ["user": "mallory", "room": "room1"])
        #expect(error["code"] == 401)
        #expect(error["message"] == "unauthorized")
        #expect(server.rooms.isEmpty)
    }

    @Test func unknownMethodGets32601AndMalformedJSONGets32700() async throws {
        let peer = RoomPeer.connected(to: server)
        #expect(try await peer.error("fooBar")["code"] == -32601)
        try await peer.sendText(#"{"jsonrpc":"2.0","method":"joinRoom","id":9"#)
        let parseError = try await peer.next()
        #expect(parseError["error"]?["code"] == -32700)
        #expect(parseError["id"] == .null)
    }

    @Test func customRequestDefaultsToKurentosRefusalAndReachesTheHook() async throws {
        #expect(try await RoomPeer.connected(to: server).error("customRequest", ["hat": true])["code"] == -1)
        let hooked = RoomServer(configuration: .init(media: TestMediaBackend(), customRequest: { request in
            ["user": request.user.map { .string($0) } ?? .null, "echo": request.params]
        }))
        let peer = RoomPeer.connected(to: hooked)
        try await peer.join("alice")
        let result = try await peer.result("customRequest", ["marker": 3])
        #expect(result["user"] == "alice")
        #expect(result["echo"] == ["marker": 3])
    }

    @Test func unparsableOfferGets302FromTheSimulatedBackend() async throws {
        let server = RoomServer(configuration: .init())
        let peer = RoomPeer.connected(to: server)
        try await peer.join("alice")
        #expect(try await peer.error("publishVideo", ["sdpOffer": "not sdp", "doLoopback": false])["code"] == 302)
        // and publishing is possible again afterwards (the reservation was dropped)
        #expect(try await peer.error("publishVideo", ["sdpOffer": "still not sdp", "doLoopback": false])["code"] == 302)
    }

    @Test func candidatesQueuedBeyondTheLimitGet303() async throws {
        let server = RoomServer(configuration: .init(media: TestMediaBackend(), limits: .init(maxQueuedCandidates: 2)))
        let peer = RoomPeer.connected(to: server)
        try await peer.join("alice")
        let candidate: JSONValue = ["endpointName": "alice", "candidate": "c", "sdpMid": "v", "sdpMLineIndex": 0]
        try await peer.result("onIceCandidate", candidate)
        try await peer.result("onIceCandidate", candidate)
        #expect(try await peer.error("onIceCandidate", candidate)["code"] == 303)
    }

    @Test func tooManyRequestsGet32000AndPersistingClosesWith1008() async throws {
        // Given a limit of 3 requests per second on a manual clock
        let clock = ManualClock()
        let server = RoomServer(configuration: .init(
            media: TestMediaBackend(), limits: .init(maxRequestsPerSecond: 3), clock: clock))
        let peer = RoomPeer.connected(to: server)
        try await peer.join("alice")
        let chat: JSONValue = ["message": "m", "userMessage": "alice", "roomMessage": "room1"]
        try await peer.result("sendMessage", chat)
        try await peer.result("sendMessage", chat)
        // When a fourth comes within the second, it is refused; the next second it passes again
        let limited = try await peer.error("sendMessage", chat)
        #expect(limited["code"] == -32000)
        #expect(limited["message"] == "rate limited")
        clock.advance(by: .seconds(1))
        try await peer.result("sendMessage", chat)
        // When it persists (twice the limit in one second), the connection is closed with 1008
        for _ in 0..<5 { _ = try await peer.request("sendMessage", chat) }
        #expect(try await peer.end().code == 1008)
    }
}
