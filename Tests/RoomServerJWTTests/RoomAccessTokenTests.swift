import Foundation
import JSONRPC
import RoomClient
import RoomProtocol
import RoomServer
import RoomServerJWT
import TestSupport
import Testing

/// Room access tokens (LiveKit's claims, docs/operations.md#room-access-tokens) against a real server on 127.0.0.1:
/// a valid token joins the room it names as the user it names; anything else is refused, before the handshake when
/// the token itself is wrong, at `joinRoom` when it is right but names someone or somewhere else.
@Suite struct RoomAccessTokenTests {
    @Test func aTokenNamingTheUserAndTheRoomJoinsIt() async throws {
        let fixture = try await JWTFixture.start()
        let token = try await fixture.token(notBefore: Date().addingTimeInterval(-60))
        let alice = fixture.client(token: token)
        try await alice.join()
        #expect(fixture.server.rooms == ["room1": ["alice"]])
        await alice.disconnect()
        await fixture.server.shutdown()
    }

    @Test func aTokenInTheAccessTokenQueryParameterJoinsAsLiveKitClientsSendIt() async throws {
        let fixture = try await JWTFixture.start()
        let token = try await fixture.token()
        let alice = fixture.client(token: nil, url: fixture.server.url + "?access_token=" + token)
        try await alice.join()
        #expect(fixture.server.rooms == ["room1": ["alice"]])
        await alice.disconnect()
        await fixture.server.shutdown()
    }

    @Test func aTokenMadeWithoutJWTKitJoins() async throws {
        // Given a LiveKit-style token signed by Python's hmac, not by jwt-kit
        let fixture = try await JWTFixture.start()
        let token = try JWTFixture.pythonToken(payload: JWTFixture.livekitPayload())

        // Then the authorizer reads the claims jwt-kit did not write, and alice joins with it
        let claims = try fixture.tokens.claims(of: token)
        #expect(claims.user == "alice" && claims.room == "room1" && claims.roomJoin && claims.issuer == "APIKey")
        let alice = fixture.client(token: token)
        try await alice.join()
        #expect(fixture.server.rooms == ["room1": ["alice"]])
        await alice.disconnect()
        await fixture.server.shutdown()
    }

    /// Each token that is not valid, and what the authorizer says of it.
    static func invalidTokens(_ fixture: JWTFixture) async throws -> [(String?, RoomTokenRefusal)] {
        let foreign = try await RoomTokenAuthorizer(hmacKey: Data(repeating: 7, count: 32))
        let payload = JWTFixture.livekitPayload(), exp = Int(JWTFixture.inAnHour.timeIntervalSince1970)
        return [
            (nil, .missing),
            ("not.a.jwt", .malformed),
            (try await foreign.token(for: .init(user: "alice", room: "room1", expires: JWTFixture.inAnHour)),
             .badSignature),
            (try JWTFixture.pythonToken(payload: payload, key: String(repeating: "x", count: 64)), .badSignature),
            (try await fixture.token(expires: JWTFixture.anHourAgo), .expired),
            (try await fixture.token(notBefore: JWTFixture.inAnHour), .notYetValid),
            (try JWTFixture.pythonToken(header: #"{"alg":"none","typ":"JWT"}"#, payload: payload),
             .wrongAlgorithm("none")),
            // Signed with the right key, but its header says RS256: jwt-kit alone would take it.
            (try JWTFixture.pythonToken(header: #"{"alg":"RS256","typ":"JWT"}"#, payload: payload),
             .wrongAlgorithm("RS256")),
            (try JWTFixture.pythonToken(payload: #"{"sub":"alice","exp":\#(exp)}"#), .noRoom),
        ]
    }

    @Test func anInvalidTokenIsAnsweredHTTP401BeforeTheHandshakeAndTheRefusalIsFinal() async throws {
        let fixture = try await JWTFixture.start()
        for (token, refusal) in try await Self.invalidTokens(fixture) {
            if let token {
                #expect(throws: refusal, "\(refusal)") { _ = try fixture.tokens.claims(of: token) }
            }
            let client = fixture.client(token: token)
            let expected = JWTFixture.refusedBeforeTheHandshake(401)
            await #expect(throws: expected, "\(refusal)") {
                try await withDeadline(.seconds(20), "connect") { try await client.connect() }
            }
            await #expect(throws: expected, "\(refusal)") { try await client.join() }
        }
        #expect(fixture.server.rooms.isEmpty)
        await fixture.server.shutdown()
    }

    @Test func aTokenThatDoesNotGrantRoomJoinIsAnsweredHTTP403BeforeTheHandshake() async throws {
        let fixture = try await JWTFixture.start()
        for token in [try await fixture.token(roomJoin: false),
                      try JWTFixture.pythonToken(payload: JWTFixture.livekitPayload(roomJoin: false))] {
            let client = fixture.client(token: token)
            await #expect(throws: JWTFixture.refusedBeforeTheHandshake(403)) {
                try await withDeadline(.seconds(20), "connect") { try await client.connect() }
            }
        }
        #expect(fixture.server.rooms.isEmpty)
        await fixture.server.shutdown()
    }

    @Test(arguments: [
        ("bob", "room1", "forbidden: the access token is for user 'alice', not 'bob'"),
        ("alice", "room2", "forbidden: the access token is for room 'room1', not 'room2'"),
    ])
    func aJoinAsAnotherUserOrIntoAnotherRoomIsForbidden(user: String, room: String, message: String) async throws {
        let fixture = try await JWTFixture.start()
        let client = fixture.client(user, room: room, token: try await fixture.token())
        let error = await #expect(throws: RoomError.self) {
            try await withDeadline(.seconds(20), "join") { try await client.join() }
        }
        #expect(error?.code == .unauthorized)
        #expect(error?.message == message)
        #expect(fixture.server.rooms.isEmpty)
        await client.disconnect()
        await fixture.server.shutdown()
    }

    @Test func aSessionBelongsToItsTokensSubject() async throws {
        // Given alice joined with one token
        let fixture = try await JWTFixture.start()
        let first = try await fixture.token(expires: JWTFixture.inAnHour)
        let joined = try await fixture.rawCall("joinRoom", ["user": "alice", "room": "room1"], token: first)
        let result = try #require(joined["result"] as? [String: Any], "\(joined)")
        let session = try #require(result["sessionId"] as? String)

        // When bob, with a valid token of his own, tries to resume her session, and then alice with a fresh token
        let bob = try await fixture.token("bob")
        let stolen = try await fixture.rawCall("connect", ["sessionId": session], token: bob)
        let fresh = try await fixture.token(expires: JWTFixture.inAnHour.addingTimeInterval(60))
        #expect(fresh != first)
        let resumed = try await fixture.rawCall("connect", ["sessionId": session], token: fresh)

        // Then bob gets the unknown session's error, and alice her session back
        #expect((stolen["error"] as? [String: Any])?["code"] as? Int == 40007, "\(stolen)")
        #expect((resumed["result"] as? [String: Any])?["value"] as? String == "reconnection successful", "\(resumed)")
        await fixture.server.shutdown()
    }

    @Test func aKeyShorterThan32BytesOrUnreadableIsRefused() async throws {
        await #expect(throws: RoomTokenAuthorizer.KeyError.self) {
            _ = try await RoomTokenAuthorizer(hmacKey: Data("short".utf8))
        }
        await #expect(throws: RoomTokenAuthorizer.KeyError.self) {
            _ = try await RoomTokenAuthorizer(keyFile: "/nonexistent/key")
        }
    }
}
