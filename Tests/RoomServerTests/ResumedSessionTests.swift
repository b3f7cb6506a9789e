import JSONRPC
import JSONRPCWebSocket
import RoomServer
import SignalingSupport
import TestSupport
import Testing

/// A new client that resumes a session (an app that restarted, a page reloaded, another library whose ids start
/// again) is never answered with the replies the old client's requests got under the same ids: a request is a
/// retry only when its id *and* content match.
@Suite struct ResumedSessionTests {
    private let sendMessage: JSONValue = ["message": "back again", "userMessage": "alice", "roomMessage": "r"]

    @Test func aNewRawClientResumingTheSessionGetsFreshAnswersUnderTheOldIds() async throws {
        // Given bob in room r, on a real socket
        let server = try await RoomServer.start(.init())
        let bob = try await RoomPeer.dialing(server.url)
        try await bob.join("bob", "r")

        // And alice's first client, whose ids 0, 1 and 2 got -32602, 999 and a joinRoom result
        let old = try await RoomPeer.dialing(server.url)
        #expect(try await old.error("joinRoom", ["room": "r"])["code"] == -32602)
        #expect(try await old.error("joinRoom", ["user": "", "room": "r"])["code"] == 999)
        let sid = try #require(try await old.result("joinRoom", ["user": "alice", "room": "r"])["sessionId"])
        #expect(try await bob.notification("participantJoined") == ["id": "alice"])

        // When its socket drops and a new client, whose ids start again at 0, resumes the session
        await old.connection.close(code: 4000, reason: "app restarted")
        let new = try await RoomPeer.dialing(server.url)
        #expect(try await new.result("connect", ["sessionId": sid])["value"] == "reconnection successful")

        // Then its sendMessage (id 1) is sent to the room, not answered with the cached 999
        #expect(try await new.result("sendMessage", sendMessage)["sessionId"] == sid)
        #expect(try await bob.notification("sendMessage") == ["user": "alice", "room": "r", "message": "back again"])

        // And its leaveRoom (id 2) removes alice, instead of getting the cached joinRoom result
        let left = try await new.request("leaveRoom")
        #expect(left["error"] == nil && left["result"]?["value"] == nil, "\(left.jsonText)")
        #expect(try await new.end().code == 1000)
        #expect(try await bob.notification("participantLeft") == ["name": "alice"])
        #expect(server.rooms == ["r": ["bob"]])

        // And alice can join again as a new session (no 104 "already exists")
        let again = try await RoomPeer.dialing(server.url)
        try await again.join("alice", "r")
        #expect(server.rooms == ["r": ["bob", "alice"]])
        await server.shutdown()
    }

    @Test func aSecondJSONRPCClientWhoseIdsRestartResumesTheSessionAndGetsFreshAnswers() async throws {
        // Given bob in room r, and alice's first JSONRPCClient with a failed, a refused and a good join
        let server = try await RoomServer.start(.init())
        let bob = try await RoomPeer.dialing(server.url)
        try await bob.join("bob", "r")
        let quiet = JSONRPCClient.Configuration(reconnect: .off, heartbeat: .off)
        let first = JSONRPCClient(url: server.url, configuration: quiet)
        await #expect { _ = try await first.call("joinRoom", params: ["room": "r"]) } throws: {
            if case .remote(let e) = $0 as? RPCError { e.code == -32602 } else { false }
        }
        await #expect { _ = try await first.call("joinRoom", params: ["user": "", "room": "r"]) } throws: {
            if case .remote(let e) = $0 as? RPCError { e.code == 999 } else { false }
        }
        _ = try await first.call("joinRoom", params: ["user": "alice", "room": "r"])
        let sid = try #require(first.sessionId)
        #expect(try await bob.notification("participantJoined") == ["id": "alice"])

        // When its connection ends and a second instance (ids from 0 again) resumes the session
        await first.close(code: 4000, reason: "app restarted")
        let second = JSONRPCClient(url: server.url, configuration: quiet)
        #expect(try await second.call("connect", params: ["sessionId": .string(sid)])["value"] == "reconnection successful")

        // Then its requests run: the chat reaches bob, and leaveRoom removes alice
        _ = try await second.call("sendMessage", params: sendMessage)
        #expect(try await bob.notification("sendMessage") == ["user": "alice", "room": "r", "message": "back again"])
        _ = try await second.call("leaveRoom")
        #expect(try await bob.notification("participantLeft") == ["name": "alice"])
        #expect(server.rooms == ["r": ["bob"]])

        // And a third client joins as alice without 104
        let third = JSONRPCClient(url: server.url, configuration: quiet)
        _ = try await third.call("joinRoom", params: ["user": "alice", "room": "r"])
        #expect(server.rooms == ["r": ["bob", "alice"]])
        await third.close()
        await server.shutdown()
    }
}
