import Foundation
import JSONRPC
import JSONRPCWebSocket
import RoomClient
import TestSupport
import Testing

/// The built `room-server` binary, with `RoomClient`s and the built `room-join` binary as its clients.
@Suite("room-server binary")
struct RoomServerCLITests {
    @Test("prints its URL, serves two users, and SIGINT closes their sessions with 1001 and exits 0")
    func servesAndShutsDown() async throws {
        let server = try await RoomServerProcess.start(["--log-level", "trace"])
        #expect(server.url.hasPrefix("ws://127.0.0.1:") && server.url.hasSuffix("/room"))

        let (alice, _) = try await joined("alice", at: server.url)
        let aliceSees = alice.events
        let root = String(server.url.dropLast("room".count))  // Room is served on `/` too
        let (bob, peers) = try await joined("bob", at: root)
        #expect(peers.map(\.identifier) == ["alice"])
        try await firstEvent(aliceSees, "alice to see bob join") { $0 == .participantJoined(Peer(identifier: "bob")) }

        let bobSees = bob.events
        try await alice.sendMessage("hello bob")
        try await firstEvent(bobSees, "bob to get alice's message") { $0 == .message("hello bob", from: "alice") }

        let aliceEnd = alice.events, bobEnd = bob.events
        server.child.send(SIGINT)
        for (events, user) in [(aliceEnd, "alice"), (bobEnd, "bob")] {
            let end = try await firstEvent(events, "\(user) to be disconnected") {
                if case .connectionStateChanged(.disconnected) = $0 { true } else { false }
            }
            guard case .connectionStateChanged(.disconnected(let close)) = end else {
                Issue.record("\(user)'s events ended without a disconnection")
                continue
            }
            #expect(close?.code == 1001, "\(user): \(String(describing: close))")
        }
        #expect(try await server.child.exitStatus() == 0)
        let log = await server.child.stderr
        #expect(log.contains("room server listening") && log.contains("participant joined"))
        for sessionId in [alice.sessionId, bob.sessionId] {
            let id = try #require(sessionId)
            #expect(!log.contains(id), "a session id is logged in full")
        }
    }

    @Test("serves wss with --tls-cert and --tls-key")
    func tls() async throws {
        let fixture = try TLSFixture.make()
        let server = try await RoomServerProcess.start(
            ["--tls-cert", fixture.certificateFile, "--tls-key", fixture.privateKeyFile])
        #expect(server.url.hasPrefix("wss://127.0.0.1:"))
        var configuration = RoomClient.Configuration()
        configuration.webSocket.tls.caFile = fixture.caFile
        let (alice, peers) = try await joined("alice", at: server.url, configuration: configuration)
        #expect(peers.isEmpty && alice.isJoined)
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
    }

    @Test("room-join against it prints the participants, then a later event; the shutdown ends it with 5")
    func roomJoinAgainstIt() async throws {
        let server = try await RoomServerProcess.start()
        let (bob, _) = try await joined("bob", at: server.url)
        let bobSees = bob.events

        let roomJoin = try ChildProcess("room-join", [server.url, "--reconnect-for", "0", "--room", "room1", "--user", "alice"])
        #expect(try await roomJoin.lineAfterConnecting() == "joined room1 as alice; participants: bob")
        try await firstEvent(bobSees, "bob to see alice join") { $0 == .participantJoined(Peer(identifier: "alice")) }
        try await bob.sendMessage("hi alice")
        #expect(try await roomJoin.nextLine() == "bob: hi alice")

        server.child.send(SIGINT)
        #expect(try await roomJoin.exitStatus() == 5)
        #expect(await roomJoin.stderr.contains("1001"))
        #expect(try await server.child.exitStatus() == 0)
    }

    @Test("limits each session to 100 requests per second by default: a flood gets -32000, then 1008")
    func rateLimitsByDefault() async throws {
        let server = try await RoomServerProcess.start()
        let connection = WebSocketMessageConnection(try await WebSocketConnection.connect(to: server.url))
        try connection.enqueue(RPCRequest(id: 0, method: "joinRoom", params: ["user": "flood", "room": "r"]).jsonText)
        let chat: JSONValue = ["message": "x", "userMessage": "flood", "roomMessage": "r"]
        for id in 1...250 { try connection.enqueue(RPCRequest(id: .number(id), method: "sendMessage", params: chat).jsonText) }
        let end = try await withDeadline(.seconds(10), "the flood to be cut off") { () async throws -> ConnectionEnd in
            var limited = 0
            do {
                while true {
                    let reply = try JSONValue(parsing: try await connection.receive())
                    if reply["error"]?["code"] == -32000 { limited += 1 }
                }
            } catch let end as ConnectionEnd {
                #expect(limited > 0, "no request was refused with -32000")
                return end
            }
        }
        #expect(end.code == 1008)
        server.child.send(SIGINT)
        #expect(try await server.child.exitStatus() == 0)
    }

    @Test("usage errors exit 2, as room-join's and tree-join's do; an address it cannot bind exits 1")
    func exitCodes() async throws {
        let badTLS = try ChildProcess("room-server", ["--tls-cert", "cert.pem"])
        #expect(try await badTLS.exitStatus() == 2)
        #expect(await badTLS.stderr.contains("--tls-cert and --tls-key go together"))
        let unknownOption = try ChildProcess("room-server", ["--no-such-option"])
        #expect(try await unknownOption.exitStatus() == 2)
        #expect(await unknownOption.stderr.contains("--no-such-option"))
        let help = try ChildProcess("room-server", ["--help"])
        #expect(try await help.exitStatus() == 0)
        let helpText = await help.remainingLines().joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(helpText.contains("2 usage error"))

        let server = try await RoomServerProcess.start()
        let port = try #require(URLComponents(string: server.url)?.port)
        let taken = try ChildProcess("room-server", ["--port", "\(port)"])
        #expect(try await taken.exitStatus() == 1)
        #expect(await taken.stderr.contains("cannot listen"))
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
    }
}
