import JSONRPC
import RoomClient
import RoomProtocol
import SDP
import TestSupport
import Testing

/// RoomClient against a scripted raw peer replaying the two-user session of docs/wire-protocol.md#room verbatim.
@Suite("RoomClient replays the Room protocol's two-user session")
struct TranscriptReplayTests {
    let transcript: TwoUserTranscript

    init() throws { transcript = try TwoUserTranscript() }

    @Test("alice: joins an empty room, publishes, trickles ICE, then sees bob join, publish and leave")
    func alice() async throws {
        // Given alice's side of the session, played by a raw peer
        let peer = ScriptedRoomPeer()
        let client = RoomClient(room: Room(username: "alice", roomName: "room1", url: "ws://transcript/room"),
                                transport: peer, configuration: RoomFixture.patient)
        let recorder = EventRecorder(client)
        let script = Task { try await peer.replay(transcript.session("alice")) }

        // When she joins, publishes and trickles her candidate
        let peers = try await client.join()
        let answer = try await client.publishVideo(sdpOffer: "v=0\r\n...", loopback: false)
        let line = "candidate:2023387037 1 udp 2122260223 192.168.1.10 48156 typ host generation 0"
        let local = IceCandidate(candidate: line, sdpMid: "audio", sdpMLineIndex: 0)
        try await client.sendICECandidate(local, for: .publisher)

        // Then the join listed nobody, the answer is the server's, and the notifications arrive in wire order
        #expect(peers.isEmpty)
        #expect(answer == "v=0\r\n...")
        #expect(client.localPeer == Peer(identifier: "alice", streams: ["webcam"]))
        let events = try await recorder.waitForRoomEvents(4)
        let remote = IceCandidate(candidate: "candidate:1 1 UDP 2013266431 10.0.0.5 50000 typ host",
                                  sdpMid: "audio", sdpMLineIndex: 0)
        #expect(events == [
            .iceCandidate(remote, endpoint: .publisher),
            .participantJoined(Peer(identifier: "bob")),
            .participantPublished(Peer(identifier: "bob", streams: ["webcam"])),
            .participantLeft(Peer(identifier: "bob", streams: ["webcam"])),
        ])
        #expect(try remote.parsed()?.port == 50000)
        #expect(client.peers.isEmpty)
        #expect(client.sessionId == "sidA")
        try await script.value
    }

    @Test("bob: joins beside a publishing alice, receives her (a candidate before the answer), leaves")
    func bob() async throws {
        // Given bob's side, after which the server closes his socket (docs/wire-protocol.md#room)
        let peer = ScriptedRoomPeer()
        let client = RoomClient(room: Room(username: "bob", roomName: "room1", url: "ws://transcript/room"),
                                transport: peer, configuration: RoomFixture.patient)
        let recorder = EventRecorder(client)
        let script = Task {
            try await peer.replay(transcript.session("bob"))
            await peer.serverEnd.close(code: 1000, reason: "")
        }

        // When he joins and subscribes to alice
        let peers = try await client.join()
        #expect(peers == [Peer(identifier: "alice", streams: ["webcam"])])
        let answer = try await client.receiveVideo(from: peers[0], sdpOffer: "v=0\r\n...")

        // Then the answer is the server's, and the candidate that preceded it is an event for his subscription
        #expect(answer == "v=0\r\n...")
        #expect(try await recorder.waitForRoomEvents(1) == [
            .iceCandidate(IceCandidate(candidate: "candidate:...", sdpMid: "video", sdpMLineIndex: 1),
                          endpoint: .subscriber(to: "alice")),
        ])

        // When he trickles a candidate the transcript never answers, and leaves
        let ice = Task {
            let candidate = IceCandidate(candidate: "candidate:...", sdpMid: "video", sdpMLineIndex: 1)
            try await client.sendICECandidate(candidate, for: .subscriber(to: "alice"))
        }
        try await waitUntil("onIceCandidate sent") { peer.requestsReceived >= 3 }
        try await client.leave()

        // Then he is out of the room, and the server's close completes the unanswered call
        #expect(!client.isJoined)
        #expect(client.peers.isEmpty)
        await #expect(throws: RPCError.connectionClosed(ConnectionEnd(code: 1000, reason: ""))) {
            try await ice.value
        }
        try await recorder.waitForConnectionState(.disconnected(ConnectionEnd(code: 1000, reason: "")))
        try await script.value
    }

    @Test("a second bob: the 104 error surfaces as RoomError with Kurento's message and sessionId")
    func secondBob() async throws {
        let peer = ScriptedRoomPeer()
        let client = RoomClient(room: Room(username: "bob", roomName: "room1", url: "ws://transcript/room"),
                                transport: peer, configuration: RoomFixture.patient)
        let script = Task { try await peer.replay(transcript.session("bob2")) }

        let error = await #expect(throws: RoomError.self) { try await client.join() }

        #expect(error?.code == .existingUserInRoom)
        #expect(error?.message == "User 'bob' already exists in room 'room1'")
        #expect(error?.data == ["sessionId": "sidC"])
        #expect(!client.isJoined)
        try await script.value
    }
}
