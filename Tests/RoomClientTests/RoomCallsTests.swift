import JSONRPC
import RoomClient
import RoomProtocol
import SDP
import Testing

/// The calls' wire form and results, and how room errors surface (docs/wire-protocol.md#room-requests).
@Suite("RoomClient calls")
struct RoomCallsTests {
    @Test("publishVideo returns the server's sdpAnswer, not the offer (NBM bug 1); unpublish clears the stream")
    func publishReturnsAnswer() async throws {
        let room = RoomFixture()
        try await room.join()

        let result = #"{"sdpAnswer":"ANSWER","sessionId":"sid"}"#
        let (answer, request) = try await room.serve("publishVideo", result: result) {
            try await $0.publishVideo(sdpOffer: "OFFER", loopback: true)
        }
        #expect(answer == "ANSWER")
        #expect(request.params == ["sdpOffer": "OFFER", "doLoopback": true])
        #expect(room.client.localPeer.streams == ["webcam"])

        let (_, unpublish) = try await room.serve("unpublishVideo", result: #"{"sessionId":"sid"}"#) {
            try await $0.unpublishVideo()
        }
        #expect(unpublish.params == nil)
        #expect(room.client.localPeer.streams.isEmpty)
    }

    @Test("receiveVideo sends <user>_webcam and returns the answer; unsubscribe accepts {} (NBM bug 2)",
          arguments: [#"{}"#, #"{"sessionId":"sid"}"#])
    func receiveAndUnsubscribe(emptyResult: String) async throws {
        let room = RoomFixture()
        let bob = try await room.join(participants: #"[{"id":"bob","streams":[{"id":"webcam"}]}]"#)[0]

        let (answer, receive) = try await room.serve("receiveVideoFrom", result: #"{"sdpAnswer":"B-ANSWER"}"#) {
            try await $0.receiveVideo(from: bob, sdpOffer: "B-OFFER")
        }
        #expect(answer == "B-ANSWER")
        #expect(receive.params == ["sender": "bob_webcam", "sdpOffer": "B-OFFER"])

        let (_, unsubscribe) = try await room.serve("unsubscribeFromVideo", result: emptyResult) {
            try await $0.unsubscribe(from: bob)
        }
        #expect(unsubscribe.params == ["sender": "bob_webcam"])
    }

    @Test("sendICECandidate names the endpoint as the Room protocol does: own name to publish, the peer's to receive")
    func iceEndpointNames() async throws {
        let room = RoomFixture()
        try await room.join()
        let line = "candidate:1 1 udp 1 192.0.2.1 9 typ host"
        let candidate = IceCandidate(candidate: line, sdpMid: "0", sdpMLineIndex: 0)

        let (_, own) = try await room.serve("onIceCandidate", result: "{}") {
            try await $0.sendICECandidate(candidate, for: .publisher)
        }
        let (_, theirs) = try await room.serve("onIceCandidate", result: "{}") {
            try await $0.sendICECandidate(candidate, for: .subscriber(to: "bob"))
        }
        #expect(own.params == ["endpointName": "alice", "candidate": .string(line), "sdpMid": "0", "sdpMLineIndex": 0])
        #expect(theirs.params?["endpointName"] == "bob")
    }

    @Test("sendPrivateMessage sends {to, message}; an unknown target is RoomError 102")
    func privateMessage() async throws {
        let room = RoomFixture()
        try await room.join()

        let (_, request) = try await room.serve("sendPrivateMessage", result: "{}") {
            try await $0.sendPrivateMessage("psst", to: "bob")
        }
        #expect(request.params == ["to": "bob", "message": "psst"])

        let notFound = #"{"code":102,"message":"User 'zoe' not found"}"#
        let error = try await room.fail("sendPrivateMessage", error: notFound) {
            try await $0.sendPrivateMessage("psst", to: "zoe")
        }
        #expect((error as? RoomError)?.code == .userNotFound)
    }

    @Test("customRequest returns the result without Kurento's wrapping",
          arguments: [(#"{"value":true,"sessionId":"sid"}"#, JSONValue.bool(true)),
                      (#"{"hat":true,"sessionId":"sid"}"#, JSONValue.object(["hat": true]))])
    func customRequest(wire: String, expected: JSONValue) async throws {
        let room = RoomFixture()
        let (result, request) = try await room.serve("customRequest", result: wire) {
            try await $0.customRequest(["hat": true])
        }
        #expect(result == expected)
        #expect(request.params == ["hat": true])
    }

    @Test("Room error codes surface as RoomError; other JSON-RPC errors stay RPCError",
          arguments: [
            (#"{"code":105,"message":"User 'bob' is not streaming","data":{"sessionId":"sid"}}"#,
             RoomErrorCode?.some(.userNotStreaming)),
            (#"{"code":-1,"message":"RuntimeException:Unsupported method","data":"java.lang.RuntimeException"}"#,
             .uncaughtException),
            (#"{"code":302,"message":"no SDP answer"}"#, .mediaSDP),
            (#"{"code":-32601,"message":"Method not found"}"#, nil),
          ])
    func errorCodes(wire: String, code: RoomErrorCode?) async throws {
        let room = RoomFixture()
        let error = try await room.fail("customRequest", error: wire) { _ = try await $0.customRequest([:]) }

        if let code {
            #expect((error as? RoomError)?.code == code)
        } else {
            #expect((error as? RPCError)?.remoteError?.code == -32601)
        }
    }

    @Test("an invalid user name is refused with 999 before anything is sent")
    func invalidUserName() async throws {
        let room = RoomFixture(username: "bad_name")
        let error = await #expect(throws: RoomError.self) { try await room.client.join() }
        #expect(error?.code == .generic)
        #expect(room.peer.requestsReceived == 0)
    }
}
