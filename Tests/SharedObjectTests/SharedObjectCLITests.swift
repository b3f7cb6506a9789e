import Foundation
import JSONRPC
import RoomClient
import SharedObjects
import Testing
import TestSupport

/// The built binaries: `room-server --shared-objects PATH` keeps persistent objects across a restart, and
/// `room-join --shared-object NAME` prints an object's state and changes (`--json`: cli-events schema).
@Suite struct SharedObjectCLITests {
    /// A `room-server` process on port 0 and its URL.
    static func roomServer(_ arguments: [String]) async throws -> (ChildProcess, String) {
        let child = try ChildProcess("room-server", ["--port", "0"] + arguments)
        return (child, try #require(try await child.nextLine()))
    }

    /// `child`'s stdout lines up to and including the first JSON line whose `event` is `event`.
    static func lines(of child: ChildProcess, until event: String) async throws -> [String] {
        var seen: [String] = []
        while let line = try await child.nextLine() {
            seen.append(line)
            if (try? JSONValue(parsing: line))?["event"]?.stringValue == event { return seen }
        }
        Issue.record("stdout ended before a \(event) line: \(seen)")
        return seen
    }

    /// `child`'s next stdout line about a shared object.
    static func nextSharedObjectLine(of child: ChildProcess) async throws -> String? {
        while let line = try await child.nextLine() { if line.hasPrefix("shared object ") { return line } }
        return nil
    }

    static func member(_ user: String, at url: String) async throws -> (RoomClient, SharedObjectClient) {
        let client = RoomClient(room: Room(username: user, roomName: "demo", url: url))
        try await client.join()
        return (client, SharedObjectClient(client: client.jsonRPCClient))
    }

    @Test func roomJoinPrintsASharedObjectAndTheServerKeepsItAcrossARestart() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }

        // Given a room server with a SQLite file, and alice in room demo holding a persistent colour
        let (server, url) = try await Self.roomServer(["--shared-objects", path, "--allow-persistent-shared-objects"])
        let (alice, aliceShared) = try await Self.member("alice", at: url)
        let color = try await aliceShared.connect("room:demo/color", persistent: true)
        try await color.setProperty("color", "red")

        // When bob's room-join watches it, and alice changes it and sends a message
        let bob = try ChildProcess("room-join", [url, "--log-level", "debug", "--room", "demo", "--user", "bob", "--json",
                                                 "--shared-object", "room:demo/color"])
        var bobLines = try await Self.lines(of: bob, until: "sharedObjectConnected")
        try await color.setProperties(["color": "blue", "size": 2])
        try await color.send("flash", params: ["times": 3])
        bobLines += try await Self.lines(of: bob, until: "sharedObjectMessage")
        bob.send(SIGINT)
        #expect(try await bob.exitStatus() == 130)
        bobLines += await bob.remainingLines()

        // Then bob printed the whole state, then only the changed keys, then the message
        let events = bobLines.compactMap { try? JSONValue(parsing: CLIEventLine.withoutTime($0)) }.filter {
            $0["event"]?.stringValue?.hasPrefix("sharedObject") == true
        }
        #expect(events.prefix(3) == [
            ["event": "sharedObjectConnected", "name": "room:demo/color", "version": 1, "persistent": true,
             "data": ["color": "red"]],
            ["event": "sharedObjectUpdate", "name": "room:demo/color", "version": 2, "changed": ["color": "blue", "size": 2],
             "sender": ["user": "alice", "room": "demo"]],
            ["event": "sharedObjectMessage", "name": "room:demo/color", "method": "flash", "params": ["times": 3],
             "sender": ["user": "alice", "room": "demo"]],
        ])
        // and every line matches the CLI schema
        if SchemaValidation.mustRun {
            let cases = bobLines.enumerated().map { index, line in
                SchemaValidation.Case(label: "bob line \(index)", schema: "Schemas/cli-events.schema.json", instanceJSON: line)
            }
            for verdict in try SchemaValidation.validate(cases) { #expect(verdict.valid, "\(verdict.label): \(verdict.errors)") }
        }

        // When the server restarts on the same file (where clients may create no persistent object)
        await alice.disconnect()
        server.send(SIGINT)
        #expect(try await server.exitStatus() == 0)
        let (restarted, newURL) = try await Self.roomServer(["--shared-objects", path])
        let (carol, carolShared) = try await Self.member("carol", at: newURL)

        // Then the colour is back, at its version (asking for persistence is fine: it is persistent already)
        let again = try await carolShared.connect("room:demo/color", persistent: true)
        #expect(again.isPersistent)
        #expect(again.data == ["color": "blue", "size": 2])
        #expect(again.version == 2)
        await carol.disconnect()
        restarted.send(SIGINT)
        #expect(try await restarted.exitStatus() == 0)
    }

    @Test func roomJoinPrintsReadableSharedObjectLines() async throws {
        let (server, url) = try await Self.roomServer([])
        let (alice, aliceShared) = try await Self.member("alice", at: url)
        let board = try await aliceShared.connect("board")
        try await board.setProperty("title", "plan")

        let bob = try ChildProcess("room-join", [url, "--log-level", "debug", "--room", "demo", "--user", "bob", "--shared-object", "board"])
        #expect(try await bob.nextLine() == "connection connecting")
        #expect(try await bob.nextLine() == "connection connected")
        #expect(try await bob.nextLine() == "joined demo as bob; participants: alice")
        // (room events such as the connection's state interleave with the shared-object lines)
        #expect(try await Self.nextSharedObjectLine(of: bob) == #"shared object board at version 1: {"title":"plan"}"#)
        try await board.setProperties(["title": nil, "done": true])
        #expect(try await Self.nextSharedObjectLine(of: bob) == "shared object board version 2 by alice: done = true, title removed")

        bob.send(SIGINT)
        #expect(try await bob.exitStatus() == 130)
        await alice.disconnect()
        server.send(SIGINT)
        #expect(try await server.exitStatus() == 0)
    }
}

extension SharedObjectCLITests {
    @Test func roomJoinReportsSharedObjectNotificationsOnlyThroughItsSharedObjects() async throws {
        // Given alice holding a board, and bob's room-join watching it
        let (server, url) = try await Self.roomServer([])
        let (alice, aliceShared) = try await Self.member("alice", at: url)
        let board = try await aliceShared.connect("board")
        let bob = try ChildProcess("room-join", [url, "--room", "demo", "--user", "bob", "--json", "--shared-object", "board"])
        var bobLines = try await Self.lines(of: bob, until: "sharedObjectConnected")

        // When alice changes the board, sends a message on it, then a chat message (a room event behind them on the
        // wire, so every room event before it has been printed once it is)
        try await board.setProperty("title", "plan")
        try await board.send("flash")
        try await alice.sendMessage("done")
        bobLines += try await Self.lines(of: bob, until: "message")
        bob.send(SIGINT)
        #expect(try await bob.exitStatus() == 130)
        bobLines += await bob.remainingLines()

        // Then bob printed the board's update and message as shared-object lines, and no notification line
        let events = bobLines.compactMap { try? JSONValue(parsing: $0) }
        #expect(events.contains { $0["event"] == "sharedObjectUpdate" && $0["version"] == 1 })
        #expect(events.contains { $0["event"] == "sharedObjectMessage" && $0["method"] == "flash" })
        #expect(events.filter { $0["event"] == "notification" } == [])

        await alice.disconnect()
        server.send(SIGINT)
        #expect(try await server.exitStatus() == 0)
    }

    @Test func interactiveSetChangesTheFirstSharedObject() async throws {
        // Given alice holding demo's colour, and bob's interactive room-join watching it
        let (server, url) = try await Self.roomServer([])
        let (alice, aliceShared) = try await Self.member("alice", at: url)
        let color = try await aliceShared.connect("room:demo/color")
        let bob = try ChildProcess("room-join", [url, "--log-level", "debug", "--room", "demo", "--user", "bob", "--json", "--interactive",
                                                 "--shared-object", "room:demo/color"], writableInput: true)
        var bobLines = try await Self.lines(of: bob, until: "sharedObjectConnected")

        // When bob types /set with a string, a JSON number, a JSON array, a removal, and one without a value
        try bob.write("/set color red\n/set size 3\n/set tags [\"a\", 1]\n/set color null\n/set oops\n")

        // Then alice sees each change, in order, and bob prints the server's updates
        try await waitUntil("alice to see version 4") { color.version == 4 }
        #expect(color.data == ["size": 3, "tags": ["a", 1]])
        for _ in 0..<4 { bobLines += try await Self.lines(of: bob, until: "sharedObjectUpdate") }
        let changes = bobLines.compactMap { try? JSONValue(parsing: $0) }
            .filter { $0["event"] == "sharedObjectUpdate" }.map { $0["changed"] }
        #expect(changes == [["color": "red"], ["size": 3], ["tags": ["a", 1]], ["color": nil]])
        // and the /set without a value is a usage error, after which bob leaves with /leave
        try bob.write("/leave\n")
        #expect(try await bob.exitStatus() == 0)
        #expect(await bob.stderr.contains("usage: /set KEY VALUE"))

        await alice.disconnect()
        server.send(SIGINT)
        #expect(try await server.exitStatus() == 0)
    }
}
