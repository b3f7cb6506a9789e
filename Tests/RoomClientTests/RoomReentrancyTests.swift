import JSONRPC
import RoomClient
import SignalingSupport
import TestSupport
import Testing

/// No user code runs under a lock of the client (docs/architecture.md#callbacks): the room client's delegate and
/// completion closures may read it and call it back.
@Suite("RoomClient callbacks call back into the client")
struct RoomReentrancyTests {
    /// A delegate that welcomes each participant with a chat message, reading the client as it does.
    final class WelcomingDelegate: RoomClientDelegate {
        let log = LockedValue<[String]>([])
        func client(_ client: RoomClient, participantJoined peer: Peer) {
            log.withLock { $0.append("\(peer.identifier) joined; peers \(client.peers.map(\.identifier))") }
            client.sendMessage("welcome \(peer.identifier)") { [log] result in
                log.withLock { $0.append((try? result.get()) == nil ? "welcome failed" : "welcomed") }
            }
        }
    }

    @Test("a delegate can read the client and call it from a callback")
    func delegateCallsBack() async throws {
        // Given a joined client whose delegate chats from participantJoined
        let room = RoomFixture()
        let delegate = WelcomingDelegate()
        room.client.delegate = delegate
        try await room.join()

        // When someone joins, and the server answers the delegate's message
        try await room.peer.notify("participantJoined", params: #"{"id":"bob"}"#)
        let message = try await room.peer.expectRequest("sendMessage")
        try await room.peer.reply(to: message, result: "{}")

        // Then the delegate read the peers model and its call completed
        try await waitUntil("the welcome") { delegate.log.withLock { $0 }.count == 2 }
        #expect(message.params?["message"] == "welcome bob")
        #expect(delegate.log.withLock { $0 } == [#"bob joined; peers ["bob"]"#, "welcomed"])
    }

    @Test("a completion closure can read the client and call it, and disconnect it")
    func completionCallsBack() async throws {
        // Given a join whose completion reads the client and sends a message, whose completion disconnects
        let room = RoomFixture()
        let log = LockedValue<[String]>([])
        room.client.join { [client = room.client] result in
            log.withLock { $0.append("joined \((try? result.get())?.map(\.identifier) ?? []); in: \(client.isJoined)") }
            client.sendMessage("hello") { _ in
                log.withLock { $0.append("sent") }
                client.disconnect { log.withLock { $0.append("disconnected: \(client.peers.isEmpty)") } }
            }
        }

        // When the server answers the join and the message
        try await room.peer.reply(to: try await room.peer.expectRequest("joinRoom"), result: #"{"value":[{"id":"bob"}]}"#)
        try await room.peer.reply(to: try await room.peer.expectRequest("sendMessage"), result: "{}")

        // Then each completion ran, in turn, and the client is out of the room
        try await waitUntil("the disconnect") { log.withLock { $0 }.count == 3 }
        #expect(log.withLock { $0 } == [#"joined ["bob"]; in: true"#, "sent", "disconnected: true"])
    }
}
