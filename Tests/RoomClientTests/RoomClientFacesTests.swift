import JSONRPC
import JSONRPCWebSocket
@testable import RoomClient
import RoomProtocol
import SDP
import SignalingSupport
import TestSupport
import Testing

/// The delegate and completion-closure faces, disconnect, and the connection settings.
@Suite("RoomClient faces and lifecycle")
struct RoomClientFacesTests {
    /// Records what the delegate is told, in order.
    final class RecordingDelegate: RoomClientDelegate {
        let calls = LockedValue<[String]>([])
        func client(_ client: RoomClient, participantJoined peer: Peer) { calls.withLock { $0.append("joined \(peer)") } }
        func client(_ client: RoomClient, participantPublished peer: Peer) {
            calls.withLock { $0.append("published \(peer)") }
        }
        func client(_ client: RoomClient, didReceivePrivateMessage message: String, from user: String) {
            calls.withLock { $0.append("private \(user): \(message)") }
        }
        func client(_ client: RoomClient, roomWasClosed room: String) { calls.withLock { $0.append("closed \(room)") } }
    }

    @Test("the delegate hears the room's events in wire order")
    func delegateFace() async throws {
        let room = RoomFixture()
        let delegate = RecordingDelegate()
        room.client.delegate = delegate
        try await room.join()

        try await room.peer.notify("participantJoined", params: #"{"id":"bob"}"#)
        try await room.peer.notify("participantPublished", params: #"{"id":"bob","streams":[{"id":"webcam"}]}"#)
        try await room.peer.notify("privateMessage", params: #"{"user":"bob","message":"psst"}"#)
        try await room.peer.notify("roomClosed", params: #"{"room":"room1"}"#)

        try await waitUntil("four delegate calls") { delegate.calls.withLock { $0 }.count >= 4 }
        #expect(delegate.calls.withLock { $0 } == ["joined bob", "published bob [webcam]", "private bob: psst", "closed room1"])
        #expect(room.client.delegate === delegate)
    }

    @Test("completion closures get the result, or the RoomError")
    func completionFace() async throws {
        let room = RoomFixture()
        let answers = LockedValue<[Result<String, any Error>]>([])
        room.client.join { _ in }
        try await room.peer.reply(to: try await room.peer.expectRequest("joinRoom"), result: #"{"value":[]}"#)

        room.client.publishVideo(sdpOffer: "OFFER") { result in answers.withLock { $0.append(result) } }
        try await room.peer.reply(to: try await room.peer.expectRequest("publishVideo"),
                                  result: #"{"sdpAnswer":"ANSWER"}"#)
        // Each completion runs in its own task: without this wait the second could be appended first.
        try await waitUntil("the first completion") { answers.withLock { $0 }.count >= 1 }
        room.client.publishVideo(sdpOffer: "OFFER") { result in answers.withLock { $0.append(result) } }
        try await room.peer.reply(to: try await room.peer.expectRequest("publishVideo"),
                                  error: #"{"code":302,"message":"no SDP answer"}"#)

        try await waitUntil("two completions") { answers.withLock { $0 }.count >= 2 }
        #expect(try answers.withLock { $0 }[0].get() == "ANSWER")
        guard case .failure(let error) = (answers.withLock { $0 })[1] else { Issue.record("expected 302"); return }
        #expect((error as? RoomError)?.code == .mediaSDP)
    }

    @Test("disconnect completes every pending call exactly once, with connectionClosed, and empties the model")
    func disconnectCompletesPending() async throws {
        let room = RoomFixture()
        try await room.join(participants: #"[{"id":"bob","streams":[{"id":"webcam"}]}]"#)
        let completions = LockedValue<[Result<String, any Error>]>([])

        // Given two calls the server never answers, one per face
        room.client.publishVideo(sdpOffer: "OFFER") { result in completions.withLock { $0.append(result) } }
        _ = try await room.peer.expectRequest("publishVideo")
        let receive = Task { try await room.client.receiveVideo(from: Peer(identifier: "bob"), sdpOffer: "OFFER") }
        _ = try await room.peer.expectRequest("receiveVideoFrom")

        // When the client disconnects
        await room.client.disconnect()

        // Then both complete with connectionClosed, the closure once, and the client is out of the room
        let end = ConnectionEnd(code: 1000, reason: "client disconnected")
        let closed = RPCError.connectionClosed(end)
        await #expect(throws: closed) { try await receive.value }
        try await waitUntil("the completion") { !completions.withLock { $0 }.isEmpty }
        try await room.recorder.waitForConnectionState(.disconnected(end))
        #expect(completions.withLock { $0 }.count == 1)
        #expect(throws: closed) { try completions.withLock { $0 }[0].get() }
        #expect(room.client.peers.isEmpty)
        #expect(!room.client.isJoined)
        #expect(room.recorder.connectionStates == [.connecting, .connected, .disconnected(end)])
    }

    @Test("a dropped connection is an event after the notifications before it, and empties the peers model")
    func dropAfterNotifications() async throws {
        let room = RoomFixture()
        try await room.join(participants: #"[{"id":"bob"}]"#)
        let events = room.client.events

        try await room.peer.notify("participantJoined", params: #"{"id":"carol"}"#)
        await room.peer.serverEnd.close(code: 1001, reason: "going away")

        let received = try await withDeadline(.seconds(10), "two events") {
            var received: [RoomEvent] = []
            for try await event in events {
                received.append(event)
                if received.count == 2 { break }
            }
            return received
        }
        #expect(received == [
            .participantJoined(Peer(identifier: "carol")),
            .connectionStateChanged(.disconnected(ConnectionEnd(code: 1001, reason: "going away"))),
        ])
        #expect(room.client.peers.isEmpty)
        #expect(!room.client.isJoined)
    }

    @Test("the auth token becomes an Authorization: Bearer header, replacing any other")
    func bearerToken() {
        var webSocket = WebSocketClientConfigurationProbe.withAuthorizationHeader("Basic old")
        webSocket.headers.append((name: "X-Other", value: "1"))
        let configuration = RoomClient.Configuration(webSocket: webSocket, authToken: "t0ken")
        let headers = configuration.webSocketWithAuthorization.headers.map { "\($0.name): \($0.value)" }
        #expect(headers == ["X-Other: 1", "Authorization: Bearer t0ken"])
        #expect(RoomClient.Configuration().webSocketWithAuthorization.headers.isEmpty)
    }
}
