import Foundation
import JSONRPC
import JSONRPCWebSocket
import RoomServer
import TestSupport
import Testing

/// Hostile input (docs/wire-protocol.md#limits): hostile clients against a real ``RoomServer`` on 127.0.0.1. Each
/// attack gets a clear error or close code, the server stays up, and a bystander in another room sees nothing but its
/// own marker. (Covered elsewhere, in-memory: malformed JSON -32700 and wrong types -32602 in ``ErrorPathTests``, a
/// spoofed `sendMessage`, requests before joining, queued-candidate overflow 303, and the rate limit on a manual
/// clock.)
@Suite struct HostileClientTests {
    /// A started server and a bystander alone in room "calm".
    struct Arena {
        let server: RoomServer
        let bystander: RoomPeer

        init(_ configuration: RoomServer.Configuration = .init()) async throws {
            server = try await RoomServer.start(configuration)
            bystander = try await RoomPeer.dialing(server.url)
            try await bystander.join("calm", "calm")
        }

        /// The bystander's round trip: its chat marker comes back, and nothing arrived before it.
        func bystanderIsUndisturbed(_ marker: String) async throws {
            try await bystander.result("sendMessage", ["message": .string(marker), "userMessage": "calm", "roomMessage": "calm"])
            #expect(try await bystander.notification("sendMessage") == [
                "room": "calm", "user": "calm", "message": .string(marker),
            ])
        }

        /// The server still accepts and serves a new client.
        func serverStillServes(_ user: String) async throws {
            try await RoomPeer.dialing(server.url).join(user, "fresh-\(user)")
        }
    }

    @Test func malformedMistypedAndDeeplyNestedJSONGetErrorsOnAnOpenConnection() async throws {
        let arena = try await Arena()
        let attacker = try await RoomPeer.dialing(arena.server.url)
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let cases: [(text: String, code: Int)] = [
            (#"{"jsonrpc":"2.0","method":"joinRoom","id":9"#, -32700),
            (deep, -32700),
            (#"{"jsonrpc":"2.0","id":3,"method":"joinRoom","params":{"user":\#(deep),"room":"r"}}"#, -32700),
            (#"{"jsonrpc":"2.0","id":4,"method":"joinRoom","params":{"user":5,"room":["r"]}}"#, -32602),
            (#"{"jsonrpc":"2.0","id":5,"method":7}"#, -32600),
            (#"{"jsonrpc":"1.0","id":6,"method":"joinRoom"}"#, -32600),
        ]
        for (text, code) in cases {
            try await attacker.sendText(text)
            let reply = try await attacker.next()
            #expect(reply["error"]?["code"] == .int(code), "\(text.prefix(60)) → \(reply.jsonText)")
            try await arena.bystanderIsUndisturbed("after \(code)")
        }
        // The attacker's connection is still usable: it can join
        try await attacker.join("attacker", "elsewhere")
        await arena.server.shutdown()
    }

    @Test func hugeStringsGetClearErrors() async throws {
        let arena = try await Arena()
        let attacker = try await RoomPeer.dialing(arena.server.url)
        let huge = String(repeating: "x", count: 900_000)
        let longName = try await attacker.error("joinRoom", ["user": .string(huge), "room": "r"])
        #expect(longName["code"] == 999)
        #expect(longName["message"]?.stringValue?.count ?? .max < 200, "the error does not echo the huge name")
        let longRoom = try await attacker.error("joinRoom", ["user": "attacker", "room": .string(huge)])
        #expect(longRoom["code"] == 999)
        #expect(try await attacker.error(huge)["code"] == -32601)
        try await arena.bystanderIsUndisturbed("after huge strings")
        try await arena.serverStillServes("after-huge")
        await arena.server.shutdown()
    }

    @Test func oversizeFrameClosesWith1009() async throws {
        let arena = try await Arena()
        let attacker = try await RoomPeer.dialing(arena.server.url)
        try await attacker.sendText(String(repeating: " ", count: (1 << 20) + 1))
        #expect(try await attacker.end().code == 1009)
        try await arena.bystanderIsUndisturbed("after 1009")
        // And one single frame that announces 20 MB (not our client's 64 KiB fragments) is refused the same way
        let raw = try RawTCPClient(port: try #require(URL(string: arena.server.url)?.port))
        try raw.sendUpgradeRequest(path: "/room")
        var frame = HostilePeer.header(.text, length: 20 << 20)
        frame[1] |= 0x80
        try raw.write(frame + [0, 0, 0, 0] + [UInt8](repeating: UInt8(ascii: " "), count: 2 << 20))
        let captured = try await withDeadline(.seconds(10), "the server to close") { await raw.readToEOF() }
        #expect(RawTCPClient.closeCode(in: captured) == 1009)
        try await arena.bystanderIsUndisturbed("after the 20 MB frame")
        try await arena.serverStillServes("after-oversize")
        await arena.server.shutdown()
    }

    @Test func binaryFramesAreReadAsTextAndGarbageGets32700() async throws {
        let arena = try await Arena()
        let attacker = try await RoomPeer.dialing(arena.server.url)
        let webSocket = try #require(attacker.connection as? WebSocketMessageConnection).webSocket
        try await webSocket.send(.binary(Data([0xFF, 0x00, 0xFE, 0x01])))
        #expect(try await attacker.next()["error"]?["code"] == -32700)
        try await arena.bystanderIsUndisturbed("after binary")
        await arena.server.shutdown()
    }

    @Test func invalidUTF8TextClosesWith1007() async throws {
        let arena = try await Arena()
        let port = try #require(URL(string: arena.server.url)?.port)
        let raw = try RawTCPClient(port: port)
        try raw.sendUpgradeRequest(path: "/room")
        try raw.write(RawTCPClient.maskedFrame(.text, Array(#"{"jsonrpc":"2.0","id":1,"method":""#.utf8) + [0xC3, 0x28]))
        let captured = try await withDeadline(.seconds(10), "the server to close") { await raw.readToEOF() }
        #expect(RawTCPClient.closeCode(in: captured) == 1007)
        try await arena.bystanderIsUndisturbed("after 1007")
        await arena.server.shutdown()
    }

    @Test(arguments: ["sendMessage", "onIceCandidate"])
    func floodsAreRateLimitedThenClosedWith1008(method: String) async throws {
        let arena = try await Arena(.init(limits: .init(maxRequestsPerSecond: 10)))
        let attacker = try await RoomPeer.dialing(arena.server.url)
        try await attacker.join("flooder", "flood")
        let params: JSONValue = method == "sendMessage"
            ? ["message": "spam", "userMessage": "flooder", "roomMessage": "flood"]
            : ["endpointName": "flooder", "candidate": "candidate:1 1 UDP 1 127.0.0.1 9 typ host", "sdpMid": "0",
               "sdpMLineIndex": 0]
        // When the attacker sends 300 requests without waiting
        var sent = 0
        do {
            for _ in 0..<300 {
                _ = try await attacker.send(method, params)
                sent += 1
            }
        } catch {}  // the server may close before all were written
        // Then some are refused with -32000 "rate limited" and the connection ends with 1008
        var limited = 0
        let end: ConnectionEnd
        do {
            while true {
                let message = try await attacker.next()
                if message["error"]?["code"] == -32000 { limited += 1 }
            }
        } catch let ended as ConnectionEnd {
            end = ended
        }
        #expect(limited >= 1)
        #expect(end.code == 1008, "\(end)")
        try await arena.bystanderIsUndisturbed("after the \(method) flood")
        try await arena.serverStillServes("after-flood")
        await arena.server.shutdown()
    }

    @Test func spoofedNamesNeverReachTheVictimOrTheBystander() async throws {
        let arena = try await Arena()
        let victim = try await RoomPeer.dialing(arena.server.url)
        try await victim.join("victim", "shared")
        let mallory = try await RoomPeer.dialing(arena.server.url)
        try await mallory.join("mallory", "shared")
        // When mallory names the victim or the bystander where her own identity belongs
        let asVictim = try await mallory.error("sendMessage", ["message": "x", "userMessage": "victim", "roomMessage": "shared"])
        #expect(asVictim["code"] == 102)
        let intoCalm = try await mallory.error("sendMessage", ["message": "x", "userMessage": "mallory", "roomMessage": "calm"])
        #expect(intoCalm["code"] == 202)
        #expect(try await mallory.error("sendPrivateMessage", ["to": "calm", "message": "x"])["code"] == 102)
        #expect(try await mallory.error("receiveVideoFrom", ["sender": "calm_webcam", "sdpOffer": "o"])["code"] == 102)
        // (Unsubscribing from what she does not receive is `{}`, as on a stock server, and touches no one.)
        #expect(try await mallory.result("unsubscribeFromVideo", ["sender": "victim_webcam"]).objectValue?.keys.sorted()
            == ["sessionId"])
        let joinAsVictim = try await RoomPeer.dialing(arena.server.url).error("joinRoom", ["user": "victim", "room": "shared"])
        #expect(joinAsVictim["code"] == 104)
        // Then the victim hears only of mallory's arrival before its own marker, and the bystander nothing
        try await victim.result("sendMessage", ["message": "marker", "userMessage": "victim", "roomMessage": "shared"])
        #expect(try await victim.notification("participantJoined") == ["id": "mallory"])
        #expect(try await victim.notification("sendMessage") == ["room": "shared", "user": "victim", "message": "marker"])
        try await arena.bystanderIsUndisturbed("after spoofing")
        await arena.server.shutdown()
    }

    @Test func requestsAfterLeaveRoomAreRefusedOrCutOff() async throws {
        let arena = try await Arena()
        let witness = try await RoomPeer.dialing(arena.server.url)
        try await witness.join("witness", "shared")
        let leaver = try await RoomPeer.dialing(arena.server.url)
        try await leaver.join("leaver", "shared")
        // When leaveRoom is followed at once by more requests on the same socket
        let leave = try await leaver.send("leaveRoom")
        var later: [Int] = []
        do {
            for _ in 0..<5 {
                later.append(try await leaver.send("sendMessage", ["message": "ghost", "userMessage": "leaver",
                                                                   "roomMessage": "shared"]))
            }
        } catch {}
        // Then leaveRoom succeeds, the later requests get errors (or no reply) and the socket closes with 1000
        var replies: [Int: JSONValue] = [:]
        let end: ConnectionEnd
        do {
            while true {
                let message = try await leaver.next()
                if let id = message["id"]?.intValue { replies[id] = message }
            }
        } catch let ended as ConnectionEnd {
            end = ended
        }
        #expect(replies[leave]?["result"] != nil)
        for id in later { #expect(replies[id]?["result"] == nil, "request after leaveRoom succeeded") }
        #expect(end.code == 1000)
        // And the witness hears of the arrival and the departure, never a ghost message
        try await witness.result("sendMessage", ["message": "marker", "userMessage": "witness", "roomMessage": "shared"])
        #expect(try await witness.notification("participantJoined") == ["id": "leaver"])
        #expect(try await witness.notification("participantLeft") == ["name": "leaver"])
        #expect(try await witness.notification("sendMessage") == ["room": "shared", "user": "witness", "message": "marker"])
        try await arena.bystanderIsUndisturbed("after leaveRoom")
        await arena.server.shutdown()
    }

    @Test func connectionsPastThePerIPCapAreRefusedWith429() async throws {
        // Given a cap of 3 connections per IP, one of them the bystander's
        let arena = try await Arena(.init(limits: .init(maxConnectionsPerIP: 3)))
        let second = try await WebSocketConnection.connect(to: arena.server.url)
        let third = try await WebSocketConnection.connect(to: arena.server.url)
        // When a fourth connects, its upgrade is refused with HTTP 429
        await #expect(throws: TransportError.self) { _ = try await WebSocketConnection.connect(to: arena.server.url) }
        try await arena.bystanderIsUndisturbed("after the refused connection")
        // And once one closes, a new connection is accepted again
        await second.close()
        try await waitUntil("a slot to free up", asyncCondition: {
            guard let connection = try? await WebSocketConnection.connect(to: arena.server.url) else { return false }
            await connection.close()
            return true
        })
        await third.close()
        await arena.server.shutdown()
    }

    @Test func slowlorisHandshakesAreDroppedAtTheHandshakeTimeout() async throws {
        // Given a 300 ms handshake timeout
        let arena = try await Arena(.init(limits: .init(handshakeTimeout: .milliseconds(300))))
        let port = try #require(URL(string: arena.server.url)?.port)
        // When 20 clients send half an upgrade request and stall
        let stalled = try (0..<20).map { _ in
            let raw = try RawTCPClient(port: port)
            try raw.write(Array("GET /room HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n".utf8))
            return raw
        }
        // Then the server drops every one of them, and the bystander never noticed
        for raw in stalled {
            #expect(try await withDeadline(.seconds(10), "the stalled handshake to be dropped") { try await raw.waitForEOF() })
        }
        try await arena.bystanderIsUndisturbed("after slowloris")
        try await arena.serverStillServes("after-slowloris")
        await arena.server.shutdown()
    }
}
