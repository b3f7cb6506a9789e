import Foundation
import JSONRPC
import RoomClient
import Testing
import TestSupport

/// The room examples, built and run as docs/examples.md shows: `room-custom-server` answers `customRequest`, and
/// `room-chat` joins a room on it and leaves at the end of its input.
@Suite struct ExamplesTests {
    @Test func theCustomServerAnswersCustomRequestsAndTheChatJoinsAndLeaves() async throws {
        let server = try ChildProcess("room-custom-server", [])
        let url = try #require(try await server.nextLine())
        #expect(url.hasPrefix("ws://127.0.0.1:"))

        // The custom handler answers a joined client
        let bob = RoomClient(room: Room(username: "bob", roomName: "lobby", url: url))
        let events = bob.events
        try await bob.connect()
        try await bob.join()
        #expect(try await bob.customRequest(["type": "whoami"]) == ["user": "bob", "room": "lobby"])
        #expect(try await bob.customRequest(["echo": 7]) == ["echo": 7])

        // room-chat with empty input connects, joins, says who is there, and leaves
        let chat = try ChildProcess("room-chat", [url, "lobby", "alice"])
        #expect(try await chat.nextLine() == "* connecting")
        #expect(try await chat.nextLine() == "* connected")
        #expect(try await chat.nextLine() == "joined lobby; here: bob")
        #expect(try await chat.exitStatus() == 0)
        let seen = try await withDeadline(.seconds(10), "alice to join and leave") {
            var seen: [RoomEvent] = []
            for try await event in events {
                if case .connectionStateChanged = event { continue }
                seen.append(event)
                if case .participantLeft = event { break }
            }
            return seen
        }
        #expect(seen == [.participantJoined(Peer(identifier: "alice")), .participantLeft(Peer(identifier: "alice"))])

        await bob.disconnect()
        server.send(SIGINT)
        #expect(try await server.exitStatus() == 0)
    }
}
