import JSONRPC
import RoomClient
import RoomServer
import SharedObjects
import Testing
import TestSupport

/// A SharedObjectClient on a RoomClient's connection claims the `sharedObject` namespace: its notifications reach the
/// shared objects and never the room's events, where only truly custom notifications are `customNotification`.
@Suite struct SharedObjectRoutingTests {
    @Test func sharedObjectNotificationsReachTheObjectsAndNeverTheRoomsEvents() async throws {
        // Given a room server whose customRequest sends the caller two application notifications, and alice and bob
        // in room demo, each with a SharedObjectClient on the room client's connection
        let server = try await RoomServer.start(.init(customRequest: { request in
            try await request.session.notify("app.ping", params: ["n": 1])
            try await request.session.notify("custonNotification", params: ["value": "hi"])
            return nil
        }))
        let (alice, aliceShared) = try await SharedObjectRoomTests.member("alice", of: "demo", at: server.url)
        let (bob, bobShared) = try await SharedObjectRoomTests.member("bob", of: "demo", at: server.url)
        let roomEvents = Arrivals("alice's room events", of: alice.events)
        let aliceBoard = aliceShared.object("room:demo/board")
        let boardEvents = aliceBoard.events
        try await aliceBoard.connect()
        let bobBoard = try await bobShared.connect("room:demo/board")

        // When bob changes the board and sends a message on it, and then alice's customRequest makes the server send
        // her the two application notifications
        try await bobBoard.setProperty("color", "red")
        try await bobBoard.send("flash", params: ["times": 2])
        let seen = try await collect(boardEvents, "alice's board message") { event in
            if case .message = event { return true }
            return false
        }
        _ = try await alice.customRequest(["ping": true])

        // Then alice's shared object got the update and the message
        #expect(seen.contains { if case .updated = $0 { true } else { false } })
        #expect(seen.last == .message(method: "flash", params: ["times": 2], sender: .user("bob", room: "demo")))
        // and her room events, read up to the last application notification (which followed every shared-object
        // one on the wire), hold only the application notifications as custom ones
        var custom: [String] = []
        while custom.last != "custonNotification" {
            if case .customNotification(let method, _) = try await roomEvents.next() { custom.append(method) }
        }
        #expect(custom == ["app.ping", "custonNotification"])

        await alice.disconnect()
        await bob.disconnect()
        await server.shutdown()
    }
}
