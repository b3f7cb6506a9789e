import JSONRPC
import RoomServer
import Testing
import TestSupport

/// The name rules of docs/wire-protocol.md#room-naming on a real ``RoomServer`` over WebSockets (issue 30, items 5
/// and 8): look-alike user names, format and bidi characters, NFKC, and room names.
@Suite struct NameRulesTests {
    /// alice alone in room "lobby", on a started server.
    struct Lobby {
        let server: RoomServer
        let alice: RoomPeer

        init() async throws {
            server = try await RoomServer.start(.init())
            alice = try await RoomPeer.dialing(server.url)
            try await alice.join("alice", "lobby")
        }

        /// alice's chat marker comes back, and `expected` notifications arrived before it (nothing else).
        func aliceHeard(_ expected: [JSONValue], before marker: String) async throws {
            try await alice.result("sendMessage", ["message": .string(marker), "userMessage": "alice", "roomMessage": "lobby"])
            for note in expected {
                let heard = try await alice.notification()
                #expect(heard["method"] == note["method"] && heard["params"] == note["params"], "\(heard.jsonText)")
            }
            #expect(try await alice.notification("sendMessage") == [
                "room": "lobby", "user": "alice", "message": .string(marker),
            ])
        }
    }

    @Test("the issue's look-alikes of alice never join beside her: 104 for the Cyrillic а, 999 for the others")
    func lookAlikesOfAliceAreRefused() async throws {
        let lobby = try await Lobby()
        let cases: [(name: String, code: Int, says: String)] = [
            ("\u{430}lice", 104, "looks like 'alice'"),  // Cyrillic а: a skeleton already in the room
            ("alice\u{200B}", 999, "format"),  // zero-width space
            ("\u{202E}ecila", 999, "format"),  // right-to-left override: renders as "alice"
            ("ａｌｉｃｅ", 104, "already exists"),  // fullwidth: NFKC makes it alice itself
            ("aIice", 104, "looks like 'alice'"),  // capital I
        ]
        for (name, code, says) in cases {
            let mallory = try await RoomPeer.dialing(lobby.server.url)
            let error = try await mallory.error("joinRoom", ["user": .string(name), "room": "lobby"])
            #expect(error["code"] == .int(code), "\(name.debugDescription): \(error.jsonText)")
            #expect(error["message"]?.stringValue?.contains(says) == true, "\(name.debugDescription): \(error.jsonText)")
        }
        // And alice heard of nobody joining
        try await lobby.aliceHeard([], before: "after the look-alikes")
        await lobby.server.shutdown()
    }

    @Test("a name is used in its NFKC form: fullwidth ｂｏｂ joins as bob and chats as bob with either spelling")
    func namesAreNormalizedToNFKC() async throws {
        let lobby = try await Lobby()
        let bob = try await RoomPeer.dialing(lobby.server.url)
        #expect(try await bob.join("ｂｏｂ", "ｌｏｂｂｙ") == [["id": "alice"]])  // the same room as "lobby"
        try await bob.result("sendMessage", ["message": "hi", "userMessage": "ｂｏｂ", "roomMessage": "ｌｏｂｂｙ"])
        try await bob.result("sendPrivateMessage", ["to": "ａｌｉｃｅ", "message": "psst"])
        try await lobby.aliceHeard([
            ["method": "participantJoined", "params": ["id": "bob"]],
            ["method": "sendMessage", "params": ["room": "lobby", "user": "bob", "message": "hi"]],
            ["method": "privateMessage", "params": ["user": "bob", "message": "psst"]],
        ], before: "after bob")
        await lobby.server.shutdown()
    }

    @Test("room names with control, format or bidi characters get 999, and the room is not created")
    func roomNamesFollowTheRules() async throws {
        let lobby = try await Lobby()
        for room in ["lobby\nx", "lobby\n2026-01-01T00:00:00+0000 critical room-server: admin token rotated", "\u{202E}ybbol",
                     "lobby\u{200B}"] {
            let peer = try await RoomPeer.dialing(lobby.server.url)
            let error = try await peer.error("joinRoom", ["user": "bob", "room": .string(room)])
            #expect(error["code"] == 999, "\(room.debugDescription): \(error.jsonText)")
            #expect(error["message"]?.stringValue?.contains("\n") == false)
        }
        #expect(lobby.server.rooms.keys.sorted() == ["lobby"])
        await lobby.server.shutdown()
    }
}
