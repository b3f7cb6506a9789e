import Foundation
import JSONRPC
import JSONRPCWebSocket
import RoomServer
import TestSupport
import Testing

/// A session id is no key to someone else's identity (docs/wire-protocol.md#sessions): a session is bound to the
/// credentials of the connection that opened it, and `connect{sessionId}` from a connection with other credentials
/// gets 40007, as an unknown session would, whether the session's own socket is open (a takeover) or gone (a
/// resume). Real sockets; the upgrade authorizer accepts alice's and mallory's tokens.
@Suite struct SessionBindingTests {
    static let tokens: Set<String> = ["alice-token", "mallory-token"]

    /// A server whose upgrade authorizer accepts the bearer tokens of ``tokens``.
    static func server() async throws -> RoomServer {
        try await RoomServer.start(.init(authorizeUpgrade: { request in
            let attempt = RoomJoinAttempt(user: "", room: "", upgrade: request)
            return attempt.bearerToken.map(tokens.contains) == true ? .accept : .reject(status: 401, reason: "unauthorized")
        }))
    }

    /// A peer on `url` whose upgrade carries `token` as `Authorization: Bearer`.
    static func dial(_ url: String, token: String? = nil) async throws -> RoomPeer {
        try await RoomPeer.dialing(url, configuration: WebSocketClientConfiguration().authorized(by: token))
    }

    /// The session id `connect` gives `peer`'s connection.
    static func sessionID(of peer: RoomPeer) async throws -> String {
        try #require(try await peer.result("connect")["sessionId"]?.stringValue)
    }

    @Test func malloryCannotTakeOverOrResumeAlicesSessionWithHerOwnToken() async throws {
        let server = try await Self.server()
        let alice = try await Self.dial(server.url, token: "alice-token")
        let alicesSession = try await Self.sessionID(of: alice)
        try await alice.join("alice", "r")
        let witness = try await Self.dial(server.url, token: "mallory-token")
        try await witness.join("witness", "r")

        // When mallory, upgraded with her own token, names alice's session while alice's socket is open
        let mallory = try await Self.dial(server.url, token: "mallory-token")
        let takeover = try await mallory.request("connect", ["sessionId": .string(alicesSession)])
        // Then she gets exactly what an unknown session gets, and is not alice
        #expect(takeover["error"] == ["code": 40007, "message": "reconnection error"], "\(takeover.jsonText)")
        let asAlice = try await mallory.error("sendMessage", ["message": "i am alice", "userMessage": "alice", "roomMessage": "r"])
        #expect(asAlice["code"] == 102)

        // And alice's socket still serves alice: her marker is the first thing the witness hears from her
        try await alice.result("sendMessage", ["message": "still me", "userMessage": "alice", "roomMessage": "r"])
        #expect(try await witness.notification("sendMessage") == ["room": "r", "user": "alice", "message": "still me"])

        // When alice's socket is gone and mallory tries to resume the session in its window, with her token in the
        // query this time
        await alice.connection.close(code: 1000, reason: "")
        let query = try await RoomPeer.dialing(server.url + "?access_token=mallory-token")
        #expect(try await query.error("connect", ["sessionId": .string(alicesSession)])["code"] == 40007)

        // Then alice herself, with her own token (in the query now), resumes it
        let back = try await RoomPeer.dialing(server.url + "?access_token=alice-token")
        let resumed = try await back.result("connect", ["sessionId": .string(alicesSession)])
        #expect(resumed["value"] == "reconnection successful")
        try await back.result("sendMessage", ["message": "back", "userMessage": "alice", "roomMessage": "r"])
        #expect(try await witness.notification("sendMessage") == ["room": "r", "user": "alice", "message": "back"])

        // And she may take her own session over from another socket with the same token: the old one gets 4409
        let again = try await Self.dial(server.url, token: "alice-token")
        #expect(try await again.result("connect", ["sessionId": .string(alicesSession)])["value"] == "reconnection successful")
        #expect(try await back.end().code == 4409)
        await server.shutdown()
    }

    @Test func withoutAuthenticationASessionIsResumedAndTakenOverAsBefore() async throws {
        let server = try await RoomServer.start(.init())
        let first = try await Self.dial(server.url)
        let session = try await Self.sessionID(of: first)
        try await first.join("solo", "r")

        // A takeover from another socket without credentials, as before
        let second = try await Self.dial(server.url)
        #expect(try await second.result("connect", ["sessionId": .string(session)])["value"] == "reconnection successful")
        #expect(try await first.end().code == 4409)
        // And a resume after the socket is gone
        await second.connection.close(code: 1000, reason: "")
        let third = try await Self.dial(server.url)
        #expect(try await third.result("connect", ["sessionId": .string(session)])["value"] == "reconnection successful")
        try await third.result("sendMessage", ["message": "hi", "userMessage": "solo", "roomMessage": "r"])
        await server.shutdown()
    }
}
