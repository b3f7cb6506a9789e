import Foundation
import JSONRPC
import RoomServer
import TestSupport
import Testing

/// The built `tree-join` binary against an in-process RoomServer on `/tree`: its `--json` lines validate against
/// `Schemas/tree-cli-events.schema.json`, it cleans up after itself, and its exit codes are the documented ones.
@Suite("tree-join")
struct TreeJoinCLITests {
    @Test("creates a tree, sets the source, attaches 3 sinks; SIGINT cleans up and exits 130; every line is valid",
          .enabled(if: SchemaValidation.mustRun, "python3 with jsonschema is missing"))
    func sourceAndSinks() async throws {
        let server = try await RoomServer.start(.init(authorizeTreeId: { _ in true }))
        let child = try ChildProcess("tree-join", [server.treeURL, "--tree", "channel", "--sinks", "3", "--json",
                                                   "--timeout", "120"])

        // When three sinks are attached, the server has them and the source
        var lines: [String] = [], sinks = 0
        while sinks < 3, let line = try await child.nextLine() {
            lines.append(line)
            if Self.event(of: line) == "sink" { sinks += 1 }
        }
        #expect(server.trees["channel"]?.hasSource == true)
        #expect(server.trees["channel"]?.sinks.count == 3)

        // And SIGINT removes the sinks and the source, releases the tree and exits 130 with done last
        child.send(SIGINT)
        #expect(try await child.exitStatus() == 130)
        lines += await child.remainingLines()
        #expect(server.trees.isEmpty)
        let events = lines.compactMap(Self.event(of:))
        #expect(events.count == lines.count, "a line without an event: \(lines)")
        #expect(events.first == "created")
        #expect(events.suffix(6) == ["sinkRemoved", "sinkRemoved", "sinkRemoved", "sourceRemoved", "released", "done"])
        #expect(events.filter { $0 == "iceCandidate" }.count == 4, "one server candidate per endpoint: \(lines)")
        #expect(lines.last.map { try? JSONValue(parsing: $0) }??["reason"] == "interrupted")

        let cases = lines.enumerated().map { index, line in
            SchemaValidation.Case(label: "line \(index): \(line)", schema: "Schemas/tree-cli-events.schema.json",
                                  instanceJSON: line)
        }
        for verdict in try SchemaValidation.validate(cases) {
            #expect(verdict.valid, "\(verdict.label): \(verdict.errors)")
        }
        await server.shutdown()
    }

    @Test("SIGTERM cleans up as SIGINT does and exits 143: the next run creates the same tree at once")
    func terminate() async throws {
        let server = try await RoomServer.start(.init(reconnectionWindow: .seconds(60), authorizeTreeId: { _ in true }))
        let child = try ChildProcess("tree-join", [server.treeURL, "--tree", "channel", "--sinks", "1", "--json"])
        while let line = try await child.nextLine(), Self.event(of: line) != "sink" {}
        #expect(server.trees["channel"]?.sinks.count == 1)

        child.send(SIGTERM)

        #expect(try await child.exitStatus() == 143)
        #expect(await child.remainingLines().suffix(2).compactMap(Self.event(of:)) == ["released", "done"])
        #expect(server.trees.isEmpty)
        let again = try ChildProcess("tree-join", [server.treeURL, "--tree", "channel", "--duration", "0.05"])
        let status = try await again.exitStatus()
        let stderr = await again.stderr
        #expect(status == 0, "\(stderr)")
        await server.shutdown()
    }

    @Test("--duration cleans up and exits 0; a refused step exits 4, no server 3, bad usage 2")
    func exitCodes() async throws {
        let server = try await RoomServer.start(.init())
        let timed = try ChildProcess("tree-join", [server.treeURL, "--sinks", "1", "--duration", "0.05"])
        #expect(try await timed.exitStatus() == 0)
        #expect(await timed.remainingLines().last == "done (duration)")
        #expect(server.trees.isEmpty)

        let refused = try ChildProcess("tree-join", [server.treeURL, "--viewer", "--tree", "nope"])
        #expect(try await refused.exitStatus() == 4)
        #expect(await refused.stderr.contains("tree error 2: Tree 'nope' not found"))

        await server.shutdown()
        let unreachable = try ChildProcess("tree-join", [server.treeURL])
        #expect(try await unreachable.exitStatus() == 3)
        let usage = try ChildProcess("tree-join", [server.treeURL, "--viewer"])
        #expect(try await usage.exitStatus() == 2)
    }

    @Test("tree-join on the Room path says the URL serves Room, not Tree; a refused connection says so; exit 3")
    func wrongEndpointAndRefusal() async throws {
        let server = try await RoomServer.start(.init())
        let roomPath = try ChildProcess("tree-join", [server.url, "--sinks", "1"])
        #expect(try await roomPath.exitStatus() == 3)
        let stderr = await roomPath.stderr
        #expect(stderr.contains("this URL serves Room, not Tree (Tree is on /tree)"), "\(stderr)")
        #expect(!stderr.contains("-32601") && !stderr.contains("sessionId"), "\(stderr)")
        #expect(server.trees.isEmpty)

        await server.shutdown()
        // Port 1 (tcpmux): nothing listens there on a test machine, so the connect is refused.
        let refused = try ChildProcess("tree-join", ["ws://127.0.0.1:1/tree"])
        #expect(try await refused.exitStatus() == 3)
        let refusal = await refused.stderr
        #expect(refusal.contains("connection refused") && !refusal.contains("connect failed: connect failed"),
                "\(refusal)")
    }

    /// The `event` member of the JSON object `line`, or nil.
    private static func event(of line: String) -> String? {
        (try? JSONValue(parsing: line))?["event"]?.stringValue
    }
}
