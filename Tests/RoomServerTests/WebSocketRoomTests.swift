import Foundation
import JSONRPC
import JSONRPCWebSocket
import PeerManager
import RoomServer
import SDP
import TestSupport
import Testing

/// The server on a real socket (127.0.0.1, port 0) with its default ``SimulatedMediaBackend``.
@Suite struct WebSocketRoomTests {
    /// Chrome's offer from the SDP tests' fixtures.
    static func chromeOffer() throws -> String { try SDPFiles.fixtureText("chrome-offer.sdp") }

    @Test func twoClientsOverWebSocketsGetValidAnswersAndLocalCandidates() async throws {
        // Given a server on an ephemeral port
        let server = try await RoomServer.start(.init(host: "127.0.0.1", port: 0))
        #expect(server.url.hasPrefix("ws://127.0.0.1:"))
        #expect(server.url.hasSuffix("/room"))
        let offer = try Self.chromeOffer()

        // When alice joins on /room and publishes Chrome's offer
        let alice = try await RoomPeer.dialing(server.url)
        try await alice.join("alice")
        let published = try await alice.result("publishVideo", ["sdpOffer": .string(offer), "doLoopback": false])
        let answer = try #require(published["sdpAnswer"]?.stringValue)

        // Then the answer satisfies the answer rules, and her candidate is on 127.0.0.1 under her name
        let violations = AnswerChecker.violations(offer: try SessionDescription(parsing: offer),
                                                  answer: try SessionDescription(parsing: answer))
        #expect(violations.isEmpty, "\(violations)")
        let candidate = try await alice.notification("iceCandidate")
        #expect(candidate["endpointName"] == "alice")
        #expect(candidate["candidate"]?.stringValue?.contains(" 127.0.0.1 ") == true)

        // When bob joins on / and subscribes to alice, his candidate carries endpointName "alice"
        let base = String(server.url.dropLast("room".count))
        let bob = try await RoomPeer.dialing(base)
        #expect(try await bob.join("bob") == [["id": "alice", "streams": [["id": "webcam"]]]])
        let received = try await bob.result("receiveVideoFrom", ["sender": "alice_webcam", "sdpOffer": .string(offer)])
        #expect(received["sdpAnswer"]?.stringValue?.hasPrefix("v=0") == true)
        #expect(try await bob.notification("iceCandidate")["endpointName"] == "alice")

        // And bob's leave closes his socket with 1000, and alice hears of it
        _ = try await bob.request("leaveRoom")
        #expect(try await bob.end().code == 1000)
        #expect(try await alice.notification("participantJoined") == ["id": "bob"])
        #expect(try await alice.notification("participantLeft") == ["name": "bob"])

        // When the server shuts down, alice's socket closes with 1001
        await server.shutdown()
        #expect(try await alice.end().code == 1001)
    }

    @Test func otherPathsAreRefused() async throws {
        let server = try await RoomServer.start(.init())
        let base = String(server.url.dropLast("/room".count))
        // (/tree is served too, by Tree's own router: TreeTests.)
        await #expect(throws: (any Error).self) { _ = try await WebSocketConnection.connect(to: base + "/other") }
        await server.shutdown()
    }

    @Test func runReturnsWhenItsTaskIsCancelled() async throws {
        let server = try await RoomServer.start(.init())
        let running = Task { await server.run() }
        running.cancel()
        try await withDeadline { await running.value }
    }

    @Test func droppedSocketIsEvictedAfterAShortenedWindow() async throws {
        let server = try await RoomServer.start(.init(reconnectionWindow: .milliseconds(200)))
        let alice = try await RoomPeer.dialing(server.url), bob = try await RoomPeer.dialing(server.url)
        try await alice.join("alice")
        try await bob.join("bob")
        #expect(try await alice.notification("participantJoined") == ["id": "bob"])
        // When bob's socket goes away without leaveRoom, the window runs out and alice hears of it
        await bob.connection.close(code: 1001, reason: "gone")
        #expect(try await alice.notification("participantLeft") == ["name": "bob"])
        await server.shutdown()
    }

    @Test func oversizeMessageClosesWith1009AndTheServerStaysUp() async throws {
        let server = try await RoomServer.start(.init(maxMessageSize: 1024))
        let big = try await RoomPeer.dialing(server.url)
        try await big.sendText(String(repeating: " ", count: 4096))
        #expect(try await big.end().code == 1009)
        try await RoomPeer.dialing(server.url).join("alice")
        await server.shutdown()
    }

    @Test func upgradeAuthorizerRefusesWithTheCloseCodeOfItsStatus() async throws {
        let server = try await RoomServer.start(.init(authorizeUpgrade: { request in
            request.queryItem("access_token") == "letmein" ? .accept : .reject(status: 401, reason: "unauthorized")
        }))
        let refused = try await RoomPeer.dialing(server.url)
        // (The refusal may already have closed the socket: then the join cannot even be sent.)
        try? await refused.sendText(RPCRequest(id: 0, method: "joinRoom", params: ["user": "mallory", "room": "room1"]).jsonText)
        let end = try await refused.end()
        #expect(end == ConnectionEnd(code: 4401, reason: "unauthorized"))
        #expect(refused.unreadNotifications.isEmpty)
        try await RoomPeer.dialing(server.url + "?access_token=letmein").join("alice")
        #expect(server.rooms == ["room1": ["alice"]])
        await server.shutdown()
    }

    @Test func aSlowUpgradeAuthorizerHoldsUpNoOtherConnection() async throws {
        // Given an authorizer that holds "slow" upgrades at a gate and accepts the others at once
        let gate = Gate(), held = Counter()
        let server = try await RoomServer.start(.init(authorizeUpgrade: { request in
            if request.queryItem("who") == "slow" {
                held.increment()
                await gate.wait()
            }
            return .accept
        }))

        // When a slow one connects and sends its join while its authorizer is held
        let slow = try await RoomPeer.dialing(server.url + "?who=slow")
        let joinID = try await slow.send("joinRoom", ["user": "slow", "room": "room1"])
        try await waitUntil("the slow upgrade's authorizer to run") { held.count == 1 }

        // Then another client connects, joins and chats meanwhile
        let quick = try await RoomPeer.dialing(server.url + "?who=quick")
        try await quick.join("quick")
        try await quick.result("sendMessage", ["message": "hi", "userMessage": "quick", "roomMessage": "room1"])
        #expect(server.rooms == ["room1": ["quick"]])

        // And once the authorizer accepts, the slow one's join, sent before, is served
        gate.open()
        #expect(try await slow.response(joinID)["result"]?["value"] == [["id": "quick"]])
        #expect(server.rooms == ["room1": ["quick", "slow"]])
        await server.shutdown()
    }

    @Test func anUpgradeAuthorizerPastTheHandshakeTimeoutRefusesWith1008() async throws {
        // Given an authorizer that never decides, and a 200 ms handshake timeout
        let gate = Gate()
        let server = try await RoomServer.start(.init(limits: .init(handshakeTimeout: .milliseconds(200)),
                                                      authorizeUpgrade: { _ in await gate.wait(); return .accept }))

        // Then a connection is closed with 1008 once the deadline passes, and its late acceptance changes nothing
        let peer = try await RoomPeer.dialing(server.url)
        let end = try await peer.end()
        #expect(end.code == 1008 && end.reason.hasPrefix("authorization timed out"), "\(end)")
        gate.open()
        await server.shutdown()
    }

    @Test func joinAuthorizerSeesTheBearerTokenOfTheUpgrade() async throws {
        let server = try await RoomServer.start(.init(authorizeJoin: { $0.bearerToken == "t0k3n" }))
        var withHeader = WebSocketClientConfiguration()
        withHeader.headers = [("Authorization", "Bearer t0k3n")]
        try await RoomPeer.dialing(server.url, configuration: withHeader).join("alice")
        try await RoomPeer.dialing(server.url + "?access_token=t0k3n").join("bob")
        let refused = try await RoomPeer.dialing(server.url).error("joinRoom", ["user": "mallory", "room": "room1"])
        #expect(refused["code"] == 401)
        await server.shutdown()
    }
}
