import JSONRPC
import RoomClient
import RoomServer
import SharedObjects
import Testing
import TestSupport

/// The example of docs/shared-objects.md (once the README's "Shared objects"), as written there (the event loop stops at the message).
@Suite struct ReadmeSharedObjectExampleTests {
    @Test func theReadmeExampleRuns() async throws {
        let server = try await RoomServer.start(.init())
        let alice = RoomClient(room: Room(username: "alice", roomName: "demo", url: server.url))
        try await alice.join()
        let shared = SharedObjectClient(client: alice.jsonRPCClient)
        let color = try await shared.connect("room:demo/color")
        #expect(color.data == [:] && color.version == 0)
        let events = color.events
        #expect(try await color.setProperty("color", "red") == 1)
        #expect(color.data == ["color": "red"])
        try await color.setProperties(["size": 3, "color": nil])
        try await color.send("flash", params: ["times": 2])
        let seen = try await collect(events, "the example's events") { if case .message = $0 { true } else { false } }
        let alicesSender = SharedObjectSender.user("alice", room: "demo")
        #expect(seen == [
            .updated(SharedObjectUpdate(name: "room:demo/color", version: 1, changed: ["color": "red"], sender: alicesSender)),
            .updated(SharedObjectUpdate(name: "room:demo/color", version: 2, changed: ["size": 3, "color": nil],
                                        sender: alicesSender)),
            .message(method: "flash", params: ["times": 2], sender: alicesSender),
        ])
        #expect(color.data == ["size": 3])
        await alice.disconnect()
        await server.shutdown()
    }
}
