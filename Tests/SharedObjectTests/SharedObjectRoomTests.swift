import JSONRPC
import JSONRPCWebSocket
import RoomClient
import RoomServer
import SharedObjectServer
import SharedObjects
import TestSupport
import Testing

/// Shared objects on a RoomServer: enabled by default, with `room:R/…` names for the members of room R.
@Suite struct SharedObjectRoomTests {
    static func member(_ user: String, of room: String, at url: String) async throws -> (RoomClient, SharedObjectClient) {
        let client = RoomClient(room: Room(username: user, roomName: room, url: url))
        try await client.connect()
        try await client.join()
        return (client, SharedObjectClient(client: client.jsonRPCClient))
    }

    @Test func roomObjectsAreForTheRoomsMembersOnly() async throws {
        // Given a room server with alice in room "demo" and bob in room "other"
        let server = try await RoomServer.start(.init())
        let (alice, aliceShared) = try await Self.member("alice", of: "demo", at: server.url)
        let (bob, bobShared) = try await Self.member("bob", of: "other", at: server.url)
        let stranger = SharedObjectClient(client: JSONRPCClient(url: server.url))

        // When each connects to demo's colour
        let color = try await aliceShared.connect("room:demo/color")
        let bobRefusal = await remoteError { _ = try await bobShared.connect("room:demo/color") }
        let strangerRefusal = await remoteError { _ = try await stranger.connect("room:demo/color") }
        let malformed = await remoteError { _ = try await aliceShared.connect("room:demo") }

        // Then only the member gets in; the others are told to join the room first
        #expect(color.isOpen)
        #expect(bobRefusal?.code == SharedObjectErrorCode.unauthorized.rawValue)
        #expect(bobRefusal?.message.contains("join room 'demo' first") == true)
        #expect(strangerRefusal?.code == SharedObjectErrorCode.unauthorized.rawValue)
        #expect(malformed?.code == -32602)
        // and names without the prefix are server-wide
        #expect(try await stranger.connect("lobby-board").isOpen)
        #expect(try await bobShared.connect("lobby-board").isOpen)

        await alice.disconnect()
        await bob.disconnect()
        await stranger.rpc.close()
        await server.shutdown()
    }

    @Test func aMemberWhoLeavesTheRoomIsDetachedFromItsObjects() async throws {
        // Given alice and carol sharing room demo's colour, and alice also holding a server-wide object
        let server = try await RoomServer.start(.init())
        let (alice, aliceShared) = try await Self.member("alice", of: "demo", at: server.url)
        let (carol, carolShared) = try await Self.member("carol", of: "demo", at: server.url)
        let aliceColor = aliceShared.object("room:demo/color")
        let events = aliceColor.events
        try await aliceColor.connect()
        let carolColor = try await carolShared.connect("room:demo/color")
        _ = try await aliceShared.connect("lobby")

        // When alice leaves the room
        try await alice.leave()

        // Then she is told the room object closed, and the server holds only carol on it
        let seen = try await collect(events, "alice's closed event") { event in
            if case .closed = event { return true }
            return false
        }
        #expect(seen.last == .closed(reason: "left the room"))
        #expect(!aliceColor.isOpen)
        // and carol's changes go on
        #expect(try await carolColor.setProperty("color", "red") == 1)
        #expect(server.sharedObjects?.state(of: "room:demo/color")?.data == ["color": "red"])

        await carol.disconnect()
        await server.shutdown()
    }

    @Test func aRoomServerWithoutSharedObjectsAnswersMethodNotFound() async throws {
        let server = try await RoomServer.start(.init(sharedObjects: nil))
        let rpc = JSONRPCClient(url: server.url)
        let error = await remoteError { _ = try await SharedObjectClient(client: rpc).connect("x") }
        #expect(error?.code == -32601)
        #expect(server.sharedObjects == nil)
        await rpc.close()
        await server.shutdown()
    }
}

extension SharedObjectRoomTests {
    @Test func closingTheRoomClosesItsObjectsForEveryMember() async throws {
        // Given alice and bob holding room demo's board, and alice a server-wide one too
        let server = try await RoomServer.start(.init())
        let (alice, aliceShared) = try await Self.member("alice", of: "demo", at: server.url)
        let (bob, bobShared) = try await Self.member("bob", of: "demo", at: server.url)
        let aliceBoard = aliceShared.object("room:demo/board"), bobBoard = bobShared.object("room:demo/board")
        let aliceEvents = aliceBoard.events, bobEvents = bobBoard.events
        try await aliceBoard.connect()
        try await bobBoard.connect()
        let lobby = try await aliceShared.connect("lobby")

        // When the application closes the room
        #expect(await server.closeRoom("demo"))

        // Then both are told the room's object closed, and nobody holds it any more
        for events in [aliceEvents, bobEvents] {
            let seen = try await collect(events, "the closed event") { if case .closed = $0 { true } else { false } }
            #expect(seen.last == .closed(reason: "room closed"))
        }
        #expect(!aliceBoard.isOpen && !bobBoard.isOpen)
        #expect(lobby.isOpen)
        await alice.disconnect()
        await bob.disconnect()
        await server.shutdown()
    }

    @Test func roomScopedNamesAreRecognised() throws {
        #expect(try SharedObjectName.room(of: "room:demo/color") == "demo")
        #expect(try SharedObjectName.room(of: "room:demo/a/b") == "demo")
        #expect(try SharedObjectName.room(of: "color") == nil)
        #expect(try SharedObjectName.room(of: "rooms:demo/x") == nil)
        // A room's own '/' and '%' are escaped, so the room ends at the first '/'
        #expect(SharedObjectName.roomScoped("notes", in: "team/secret") == "room:team%2Fsecret/notes")
        #expect(SharedObjectName.roomScoped("a/b", in: "100%") == "room:100%25/a/b")
        #expect(try SharedObjectName.room(of: "room:team%2Fsecret/notes") == "team/secret")
        #expect(try SharedObjectName.room(of: "room:team/secret/notes") == "team")
        #expect(try SharedObjectName.room(of: "room:100%25/a/b") == "100%")
        for room in ["demo", "a/b/c", "%2F", "50% off/now", "ümlaut/ß"] {
            #expect(try SharedObjectName.room(of: SharedObjectName.roomScoped("x", in: room)) == room)
        }
        for malformed in ["room:", "room:demo", "room:/x", "room:demo/", "room:a%2fb/x", "room:a%/x", "room:a%41/x"] {
            #expect(throws: RPCErrorObject.self, "\(malformed)") { try SharedObjectName.room(of: malformed) }
        }
        #expect(throws: RPCErrorObject.self) { try SharedObjectName.validate(String(repeating: "n", count: 257)) }
        try SharedObjectName.validate(String(repeating: "n", count: 256))
    }
}
