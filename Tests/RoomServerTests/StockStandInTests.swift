import JSONRPC
import Testing
import TestSupport

/// TestSupport's `StockKurentoRoomServer`, the oracle of the "against stock Kurento" tests, answers as the stock
/// sources do (docs/wire-protocol.md#stock-kurento; each behaviour's source is cited beside its code there).
@Suite struct StockStandInTests {
    @Test func anUnknownMethodGetsNoReply() async throws {
        let server = try StockKurentoRoomServer()
        defer { server.stop() }
        let peer = try await RoomPeer.dialing(server.url)
        try await peer.join("alice", "r")
        _ = try await peer.send("noSuchMethod", ["x": 1])
        let ping = try await peer.send("ping")
        // The next message answers the ping: the unknown method got nothing
        #expect(try await peer.next()["id"] == .int(ping))
    }

    @Test func roomExceptionsNameTheRoomAndCarryTheSessionInData() async throws {
        let server = try StockKurentoRoomServer()
        defer { server.stop() }
        let alice = try await RoomPeer.dialing(server.url), other = try await RoomPeer.dialing(server.url)
        try await alice.join("alice", "r")
        let session = try await alice.result("connect")["sessionId"]
        let taken = try await other.error("joinRoom", ["user": "alice", "room": "r"])
        #expect(taken["code"] == 104)
        #expect(taken["message"] == "User 'alice' already exists in room 'r'")
        #expect(taken["data"]?["sessionId"] != nil)
        #expect(taken["data"]?.objectValue?.count == 1)
        // A request before joinRoom: RoomManager.getParticipant's 102, the session in data
        let early = try await other.error("sendMessage", ["message": "hi", "userMessage": "bob", "roomMessage": "r"])
        #expect(early["code"] == 102)
        #expect(early["message"]?.stringValue?.hasPrefix("No participant with id '") == true)
        #expect(early["data"] == ["sessionId": try #require(taken["data"]?["sessionId"])])
        #expect(session != taken["data"]?["sessionId"])
    }

    @Test func anUncaughtExceptionIsMinusOneWithAStackTraceAndNoSession() async throws {
        let server = try StockKurentoRoomServer()
        defer { server.stop() }
        let peer = try await RoomPeer.dialing(server.url)
        try await peer.join("alice", "r")
        let refused = try await peer.error("customRequest", ["hat": true])
        #expect(refused["code"] == -1)
        #expect(refused["message"] == "RuntimeException:Unsupported method")
        #expect(refused["data"]?.stringValue?.hasPrefix("java.lang.RuntimeException: Unsupported method\n\tat ") == true)
    }

    @Test func pingCarriesASessionIdOnlyWhenAskedAndConnectAnswersOK() async throws {
        let server = try StockKurentoRoomServer()
        defer { server.stop() }
        let peer = try await RoomPeer.dialing(server.url)
        #expect(try await peer.result("ping") == ["value": "pong"])
        #expect(try await peer.result("ping", ["sessionId": "s1"]) == ["value": "pong", "sessionId": "s1"])
        let opened = try await peer.result("connect")
        #expect(opened["value"] == "OK")
        #expect(opened["sessionId"]?.stringValue?.isEmpty == false)
        #expect(opened.objectValue?.count == 2)
        let refused = try await peer.error("connect", ["sessionId": "unknown"])
        #expect(refused == ["code": 40007, "message": "reconnection error"])
    }

    @Test func publishAndChatReplyBeforeTheyNotifyAndTheSenderHearsItsOwnChat() async throws {
        let server = try StockKurentoRoomServer()
        defer { server.stop() }
        let alice = try await RoomPeer.dialing(server.url)
        try await alice.join("alice", "r")
        let chat = try await alice.send("sendMessage", ["message": "hi", "userMessage": "alice", "roomMessage": "r"])
        #expect(try await alice.next()["id"] == .int(chat))
        #expect(try await alice.next()["params"] == ["room": "r", "user": "alice", "message": "hi"])
    }

    @Test func malformedJSONAndBatchesGetNothing() async throws {
        let server = try StockKurentoRoomServer()
        defer { server.stop() }
        let peer = try await RoomPeer.dialing(server.url)
        try await peer.sendText("{not json")
        try await peer.sendText(#"[{"jsonrpc":"2.0","id":70,"method":"ping"}]"#)
        let ping = try await peer.send("ping")
        #expect(try await peer.next()["id"] == .int(ping))
    }
}
