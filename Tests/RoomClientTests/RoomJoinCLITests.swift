import JSONRPC
import JSONRPCWebSocket
import SignalingSupport
import TestSupport
import Testing

/// The built `room-join` binary against a scripted room peer behind a real WebSocket server (basic run).
@Suite("room-join basic run")
struct RoomJoinCLITests {
    /// Starts a WebSocket server, runs `room-join` against it and plays `script` on the connection it accepts.
    /// `upgrade` receives the upgrade request of that connection (its `authorization` header is captured).
    private func run(_ extraArguments: [String] = [], upgrade: LockedValue<UpgradeRequest?> = LockedValue(nil),
                     answersConnect: Bool = true, _ script: @escaping @Sendable (ScriptedRoomPeer) async throws -> Void)
        async throws -> RoomJoinProcess
    {
        let server = try await WebSocketServer.start()
        let served = Task {
            for await connection in server.connections {
                upgrade.withLock { $0 = connection.request }
                try await script(ScriptedRoomPeer(accepted: WebSocketMessageConnection(connection),
                                                 answersConnect: answersConnect))
                return
            }
        }
        let result = try await RoomJoinProcess.run([
            server.url + "/room", "--room", "room1", "--user", "alice", "--timeout", "120",
        ] + extraArguments)
        try await served.value
        await server.shutdown()
        return result
    }

    @Test("prints the participants, then every event; a closed room exits 6")
    func printsEvents() async throws {
        let result = try await run { peer in
            let join = try await peer.expectRequest("joinRoom")
            #expect(join.params == ["user": "alice", "room": "room1", "dataChannels": false])
            let participants = #"[{"id":"bob","streams":[{"id":"webcam"}]}]"#
            try await peer.reply(to: join, result: #"{"value":\#(participants),"sessionId":"s"}"#)
            try await peer.notify("participantJoined", params: #"{"id":"carol"}"#)
            try await peer.notify("sendMessage", params: #"{"room":"room1","user":"carol","message":"hi"}"#)
            try await peer.notify("privateMessage", params: #"{"user":"bob","message":"psst"}"#)
            try await peer.notify("roomClosed", params: #"{"room":"room1"}"#)
        }

        #expect(result.status == 6)
        // (the connection's opening is reported first, as it happened)
        #expect(result.stdout.prefix(3) == [
            "connection connecting", "connection connected", "joined room1 as alice; participants: bob [webcam]",
        ])
        let events = result.stdout.filter { !$0.hasPrefix("connection ") }
        #expect(events.dropFirst() == [
            "participant joined: carol", "carol: hi", "bob (private): psst", "room room1 closed",
        ])
    }

    @Test("--token is sent as a bearer Authorization header; --retries and --log-level are accepted")
    func token() async throws {
        let upgrade = LockedValue<UpgradeRequest?>(nil)
        let result = try await run(["--token", "t0ken", "--retries", "0", "--log-level", "trace"], upgrade: upgrade) {
            peer in
            try await peer.reply(to: try await peer.expectRequest("joinRoom"), result: #"{"value":[]}"#)
            try await peer.notify("roomClosed", params: #"{"room":"room1"}"#)
        }

        #expect(result.status == 6)
        #expect(upgrade.withLock { $0 }?.headers["authorization"] == "Bearer t0ken")
        #expect(!result.stderr.isEmpty, "--log-level trace logs to stderr")
        #expect(!result.stdout.contains { $0.contains("t0ken") } && !result.stderr.contains("t0ken"))
        #expect(try await RoomJoinProcess.run(["ws://127.0.0.1:1", "--room", "r", "--user", "a", "--retries", "-1"])
            .status == 2)
    }

    @Test("a refused join exits 4 and prints the room error code")
    func refusedJoin() async throws {
        let result = try await run { peer in
            let join = try await peer.expectRequest("joinRoom")
            try await peer.reply(to: join, error: #"{"code":104,"message":"User 'alice' already exists"}"#)
        }

        #expect(result.status == 4)
        #expect(result.stderr.contains("104"))
    }

    @Test("a server that never answers connect delays the join by seconds, not by --timeout (120 s here)")
    func unansweredDescribe() async throws {
        let start = ContinuousClock.now
        let result = try await run(answersConnect: false) { peer in
            var request = try await peer.nextRequest()
            while request.method == "connect" || request.method == "ping" {  // connect is never answered
                if request.method == "ping" { try await peer.reply(to: request, result: #"{"value":"pong"}"#) }
                request = try await peer.nextRequest()
            }
            #expect(request.method == "joinRoom")
            try await peer.reply(to: request, result: #"{"value":[]}"#)
            try await peer.notify("roomClosed", params: #"{"room":"room1"}"#)
        }

        #expect(result.status == 6, "\(result.stderr)")
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    @Test("an unreachable server exits 3; a missing option exits 2")
    func exitCodes() async throws {
        let server = try await WebSocketServer.start()
        let url = server.url + "/room"
        await server.shutdown()  // the port is free again: nothing listens there

        #expect(try await RoomJoinProcess.run([url, "--room", "room1", "--user", "alice"]).status == 3)
        #expect(try await RoomJoinProcess.run([url, "--room", "room1"]).status == 2)
    }
}
