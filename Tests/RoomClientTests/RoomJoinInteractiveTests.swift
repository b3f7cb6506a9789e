import JSONRPC
import RoomClient
import RoomServer
import TestSupport
import Testing

/// `room-join --interactive --json`, driven through its stdin, against an in-process ``RoomServer`` with a second
/// user (a ``RoomClient``) in the room.
@Suite("room-join interactive mode")
struct RoomJoinInteractiveTests {
    @Test("chat, /msg, an unknown command, /who and /leave: bob gets each message once; /who lists him; left is last",
          .enabled(if: SchemaValidation.mustRun))
    func commands() async throws {
        // Given bob in room1 and alice's room-join reading stdin
        let server = try await RoomServer.start(.init())
        let (bob, recorder) = try await Self.joined("bob", at: server.url)
        let alice = try Self.roomJoin("alice", at: server.url)
        var lines = try await Self.lines(of: alice, until: "joined")

        // When alice types a chat line, a private message, a bad command, then /who
        try alice.write("hello all\n/msg bob hi there\n/nope\n/who\n")
        lines += try await Self.lines(of: alice, until: "participants", "message")
        // Then bob receives the chat and the private message (alice's own chat comes back to her as an event)
        try await recorder.waitForRoomEvents(3)
        #expect(lines.map(Self.parse).contains(["event": "message", "text": "hello all", "user": "alice"]))
        #expect(lines.map(Self.parse).contains(["event": "participants", "participants": [["streams": [], "user": "bob"]]]))

        // When alice leaves with /leave
        try alice.write("/leave\n")
        #expect(try await alice.exitStatus() == 0)
        lines += await alice.remainingLines()

        // Then bob saw alice join, the two messages and alice leave, each once and in order
        try await recorder.waitForRoomEvents(4)
        #expect(recorder.roomEvents == [
            .participantJoined(Peer(identifier: "alice")), .message("hello all", from: "alice"),
            .privateMessage("hi there", from: "alice"), .participantLeft(Peer(identifier: "alice")),
        ])
        #expect(lines.last.flatMap(Self.parse) == Self.left)
        #expect(await alice.stderr.contains("unknown command /nope"))
        #expect(lines.contains { $0.contains(#""event":"error""#) && $0.contains("/nope") })
        try Self.validate(lines)

        await bob.disconnect()
        await server.shutdown()
    }

    @Test("the end of stdin leaves the room and exits 0")
    func endOfInput() async throws {
        let server = try await RoomServer.start(.init())
        let (bob, recorder) = try await Self.joined("bob", at: server.url)
        let alice = try Self.roomJoin("alice", at: server.url)
        _ = try await Self.lines(of: alice, until: "joined")

        try alice.closeInput()

        #expect(try await alice.exitStatus() == 0)
        #expect(await alice.remainingLines().last.flatMap(Self.parse) == Self.left)
        try await recorder.waitForRoomEvents(2)
        #expect(recorder.roomEvents == [.participantJoined(Peer(identifier: "alice")),
                                        .participantLeft(Peer(identifier: "alice"))])
        await bob.disconnect()
        await server.shutdown()
    }

    /// The last line of a clean leave.
    private static let left: JSONValue = ["event": "left", "reason": "leave", "room": "room1"]

    /// `line` as JSON, or nil.
    /// A line as an object, without its timestamp (`CLIEventLine`: a line without a well-formed one keeps it).
    private static func parse(_ line: String) -> JSONValue? { try? JSONValue(parsing: CLIEventLine.withoutTime(line)) }

    /// `room-join --interactive --json` for `user` in room1, its stdin writable.
    private static func roomJoin(_ user: String, at url: String) throws -> ChildProcess {
        try ChildProcess("room-join", [url, "--room", "room1", "--user", user, "--json", "--interactive",
                                       "--timeout", "120"], writableInput: true)
    }

    /// A client of room1, connected and joined, with its events recorded from the start.
    private static func joined(_ user: String, at url: String) async throws -> (RoomClient, EventRecorder) {
        let client = RoomClient(room: Room(username: user, roomName: "room1", url: url),
                                configuration: RoomFixture.patient)
        let recorder = EventRecorder(client)
        try await client.connect()
        try await client.join()
        return (client, recorder)
    }

    /// `child`'s stdout lines until a line of each of `events` was seen (in any order).
    private static func lines(of child: ChildProcess, until events: String...) async throws -> [String] {
        var seen: [String] = [], pending = Set(events)
        while let line = try await child.nextLine() {
            seen.append(line)
            if let event = parse(line)?["event"]?.stringValue { pending.remove(event) }
            if pending.isEmpty { return seen }
        }
        Issue.record("stdout ended before lines of \(pending): \(seen)")
        return seen
    }

    /// Checks every line against `Schemas/cli-events.schema.json` with the python witness.
    private static func validate(_ lines: [String]) throws {
        let cases = lines.enumerated().map { index, line in
            SchemaValidation.Case(label: "line \(index): \(line)", schema: "Schemas/cli-events.schema.json",
                                  instanceJSON: line)
        }
        for verdict in try SchemaValidation.validate(cases) {
            #expect(verdict.valid, "\(verdict.label): \(verdict.errors)")
        }
    }
}
