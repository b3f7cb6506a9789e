import JSONRPC
import RoomServer
import SignalingSupport
import Testing
import TestSupport

/// An independent witness (docs/testing.md#witnesses): everything the server sends in a full session validates against
/// `Schemas/room-protocol.schema.json` through Python `jsonschema` (one process for the whole test).
@Suite struct SchemaWitnessTests {
    @Test(.enabled(if: SchemaValidation.mustRun, "python3 with jsonschema is missing"))
    func everyMessageTheServerSendsValidates() async throws {
        // Given a two-user session with every method the schema describes
        let server = RoomServer(configuration: .init(media: TestMediaBackend(), customRequest: { _ in ["hat": true] }))
        let alice = RoomPeer.connected(to: server), bob = RoomPeer.connected(to: server)
        try await alice.join("alice")
        try await alice.result("publishVideo", ["sdpOffer": "offer", "doLoopback": false])
        try await alice.notification("iceCandidate")
        try await bob.join("bob")
        try await alice.notification("participantJoined")
        try await bob.result("receiveVideoFrom", ["sender": "alice_webcam", "sdpOffer": "offer"])
        try await bob.notification("iceCandidate")
        try await bob.result("onIceCandidate",
                             ["endpointName": "alice", "candidate": "c", "sdpMid": "v", "sdpMLineIndex": 0])
        try await bob.result("sendMessage", ["message": "hi", "userMessage": "bob", "roomMessage": "room1"])
        try await bob.result("sendPrivateMessage", ["to": "alice", "message": "psst"])
        try await bob.result("customRequest", ["hat": true])
        _ = try await bob.error("receiveVideoFrom", ["sender": "carol_webcam", "sdpOffer": "offer"])
        try await bob.result("unsubscribeFromVideo", ["sender": "alice_webcam"])
        try await alice.result("unpublishVideo")
        try await bob.notification("sendMessage")
        try await bob.notification("participantUnpublished")
        _ = try await bob.request("leaveRoom")
        _ = try await bob.end()
        try await alice.notification("sendMessage")
        try await alice.notification("privateMessage")
        try await alice.notification("participantLeft")
        _ = await server.closeRoom("room1")
        try await alice.notification("roomClosed")

        // Then every message validates against its definition
        let messages = alice.received.withLock { $0 } + bob.received.withLock { $0 }
        let cases = messages.enumerated().map { index, message in
            SchemaValidation.Case(label: "\(index) \(message.definition)", schema: "Schemas/room-protocol.schema.json",
                                  ref: "#/$defs/\(message.definition)", instanceJSON: message.text)
        }
        #expect(cases.count >= 20)
        for verdict in try SchemaValidation.validate(cases) {
            #expect(verdict.valid, "\(verdict.label): \(verdict.errors)")
        }
    }
}
