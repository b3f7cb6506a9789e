import Foundation
import JSONRPC
import TestSupport
import Testing

/// `room-join --json` against the built `room-server`: every stdout line is one object that
/// `Schemas/cli-events.schema.json` accepts, as the python jsonschema witness judges it.
@Suite("room-join --json")
struct RoomJoinJSONTests {
    @Test("two participants publish, subscribe and chat; every line is valid and has an event; left is last",
          .enabled(if: SchemaValidation.mustRun))
    func linesMatchTheSchema() async throws {
        let server = try await RoomServerProcess.start()
        let alice = try ChildProcess("room-join", [
            server.url, "--reconnect-for", "0", "--room", "room1", "--user", "alice", "--json", "--wait-for", "bob", "--publish",
            "--receive-all", "--message", "hi", "--private", "bob:psst",
        ])
        var aliceLines = try await lines(of: alice) { Self.event(of: $0) == "joined" }
        let bob = try ChildProcess("room-join", [
            server.url, "--reconnect-for", "0", "--room", "room1", "--user", "bob", "--json", "--wait-for", "alice", "--publish",
            "--receive", "alice",
        ])
        var bobLines = try await Self.awaitEvents(bob, ["privateMessage", "subscribed"])
        aliceLines += try await Self.awaitEvents(alice, ["subscribed"])

        server.child.send(SIGINT)
        for child in [alice, bob] { #expect(try await child.exitStatus() == 5) }
        aliceLines += await alice.remainingLines()
        bobLines += await bob.remainingLines()

        let events = Set((aliceLines + bobLines).map(Self.event(of:)))
        let expected: Set<String?> = [
            "joined", "participantJoined", "participantPublished", "published", "subscribed", "iceCandidate",
            "message", "privateMessage", "connectionState", "error", "left",
        ]
        #expect(expected.isSubset(of: events), "\(events)")
        #expect(!events.contains(nil), "a line without an event")
        for lines in [aliceLines, bobLines] { #expect(lines.last.flatMap(Self.event(of:)) == "left") }

        let cases = (aliceLines + bobLines).enumerated().map { index, line in
            SchemaValidation.Case(label: "line \(index): \(line)", schema: "Schemas/cli-events.schema.json",
                                  instanceJSON: line)
        }
        for verdict in try SchemaValidation.validate(cases) {
            #expect(verdict.valid, "\(verdict.label): \(verdict.errors)")
        }
        #expect(try await server.child.exitStatus() == 0)
    }

    /// `child`'s stdout lines until each of `events` has been seen (in any order).
    private static func awaitEvents(_ child: ChildProcess, _ events: Set<String>) async throws -> [String] {
        var pending = events
        return try await lines(of: child) { line in
            if let event = event(of: line) { pending.remove(event) }
            return pending.isEmpty
        }
    }

    /// The `event` member of the JSON object `line`, or nil.
    private static func event(of line: String) -> String? {
        (try? JSONValue(parsing: line))?["event"]?.stringValue
    }
}
