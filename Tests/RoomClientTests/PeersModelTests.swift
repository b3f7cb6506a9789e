import JSONRPC
import RoomClient
import RoomProtocol
import SDP
import Testing

/// The peers model follows the wire: each notification is applied before its event, and a call's result only
/// after the notifications that preceded its response (docs/architecture.md#event-streams).
@Suite("RoomClient peers model and event order")
struct PeersModelTests {
    @Test("join returns the participants already in the room; unknown ids and the local user give nil")
    func joinReturnsPeers() async throws {
        let room = RoomFixture()
        let peers = try await room.join(participants: #"[{"id":"bob","streams":[{"id":"webcam"}]},{"id":"carol"}]"#)

        #expect(peers == [Peer(identifier: "bob", streams: ["webcam"]), Peer(identifier: "carol")])
        #expect(room.client.peers == peers)
        #expect(room.client.isJoined)
        #expect(room.client.peer(withIdentifier: "carol") == Peer(identifier: "carol"))
        #expect(room.client.peer(withIdentifier: "zoe") == nil)
        #expect(room.client.peer(withIdentifier: "alice") == nil)
    }

    @Test("each notification has updated the peers model by the time its event arrives")
    func stateBeforeEvent() async throws {
        let room = RoomFixture()
        try await room.join(participants: #"[{"id":"carol"}]"#)
        let steps: [(method: String, params: String, event: RoomEvent, peers: [Peer])] = [
            ("participantJoined", #"{"id":"dave"}"#, .participantJoined(Peer(identifier: "dave")),
             [Peer(identifier: "carol"), Peer(identifier: "dave")]),
            ("participantPublished", #"{"id":"dave","streams":[{"id":"webcam"}]}"#,
             .participantPublished(Peer(identifier: "dave", streams: ["webcam"])),
             [Peer(identifier: "carol"), Peer(identifier: "dave", streams: ["webcam"])]),
            ("participantUnpublished", #"{"name":"dave"}"#, .participantUnpublished(Peer(identifier: "dave")),
             [Peer(identifier: "carol"), Peer(identifier: "dave")]),
            ("participantLeft", #"{"name":"carol"}"#, .participantLeft(Peer(identifier: "carol")),
             [Peer(identifier: "dave")]),
        ]
        for (index, step) in steps.enumerated() {
            // When one notification arrives
            try await room.peer.notify(step.method, params: step.params)
            // Then its event arrives after the model changed, and nothing else changed it since
            let events = try await room.recorder.waitForRoomEvents(index + 1)
            #expect(events[index] == step.event)
            #expect(room.client.peers == step.peers)
        }
    }

    @Test("a call's result is delivered only after the notifications that arrived before its response")
    func resultAfterEarlierNotifications() async throws {
        let room = RoomFixture()
        try await room.join()

        async let sent: Void = room.client.sendMessage("hello")
        let request = try await room.peer.expectRequest("sendMessage")
        try await room.peer.notify("participantJoined", params: #"{"id":"erin"}"#)
        try await room.peer.notify("participantPublished", params: #"{"id":"erin","streams":[{"id":"webcam"}]}"#)
        try await room.peer.reply(to: request, result: #"{"sessionId":"sid"}"#)
        try await sent

        // No waiting: both notifications were applied before the call returned.
        #expect(room.client.peers == [Peer(identifier: "erin", streams: ["webcam"])])
        #expect(request.params == ["message": "hello", "userMessage": "alice", "roomMessage": "room1"])
    }

    @Test("a notification right behind the join response is kept, not overwritten by the join result")
    func notificationRightAfterJoin() async throws {
        let room = RoomFixture()
        async let joined = room.client.join()
        let request = try await room.peer.expectRequest("joinRoom")
        // The response and the next notification leave in one burst.
        try await room.peer.reply(to: request, result: #"{"value":[{"id":"bob"}],"sessionId":"sid"}"#)
        try await room.peer.notify("participantJoined", params: #"{"id":"carol"}"#)

        #expect(try await joined == [Peer(identifier: "bob")])
        try await room.recorder.waitForRoomEvents(1)
        #expect(room.client.peers == [Peer(identifier: "bob"), Peer(identifier: "carol")])
    }

    @Test("events are multicast: every subscriber sees every event, in the same order")
    func multicast() async throws {
        let room = RoomFixture()
        let second = EventRecorder(room.client)
        try await room.join()
        for name in ["b", "c", "d"] { try await room.peer.notify("participantJoined", params: #"{"id":"\#(name)"}"#) }

        let first = try await room.recorder.waitForRoomEvents(3)
        #expect(try await second.waitForRoomEvents(3) == first)
        #expect(first == ["b", "c", "d"].map { .participantJoined(Peer(identifier: $0)) })
    }

    @Test("every Room notification becomes its typed event, in wire order")
    func everyNotification() async throws {
        let room = RoomFixture()
        try await room.join(participants: #"[{"id":"bob"}]"#)
        let wire: [(String, String)] = [
            ("sendMessage", #"{"room":"room1","user":"bob","message":"hi all"}"#),
            ("privateMessage", #"{"user":"bob","message":"psst"}"#),
            ("iceCandidate", #"{"endpointName":"bob","sdpMLineIndex":1,"sdpMid":"video","#
                + #""candidate":"candidate:1 1 UDP 1 10.0.0.5 50000 typ host"}"#),
            ("mediaError", #"{"error":"endpoint gone"}"#),
            ("custonNotification", #"{"MarkerFilterState":2}"#),
            ("participantLeft", #"{}"#),
            ("roomClosed", #"{"room":"room1"}"#),
            ("participantEvicted", #"{}"#),
        ]
        for (method, params) in wire { try await room.peer.notify(method, params: params) }

        let events = try await room.recorder.waitForRoomEvents(wire.count)
        #expect(events.count == wire.count)
        #expect(events[0] == .message("hi all", from: "bob"))
        #expect(events[1] == .privateMessage("psst", from: "bob"))
        #expect(events[2] == .iceCandidate(
            .init(candidate: "candidate:1 1 UDP 1 10.0.0.5 50000 typ host", sdpMid: "video", sdpMLineIndex: 1),
            endpoint: .subscriber(to: "bob")))
        #expect(events[3] == .mediaError("endpoint gone", endpoint: nil))
        #expect(events[4] == .customNotification(method: "custonNotification", params: ["MarkerFilterState": 2]))
        guard case .invalidNotification(let error) = events[5] else {
            Issue.record("a participantLeft without name should be reported, got \(events[5])")
            return
        }
        #expect(error.member == "name")
        #expect(events[6] == .roomClosed(room: "room1"))
        #expect(events[7] == .participantEvicted)
        #expect(room.client.peers.isEmpty)
        #expect(!room.client.isJoined)
    }
}
