import Foundation
import Testing
import TestSupport

/// The embedding example (`Examples/Embedding`, a package of its own that depends on this one by path and uses only
/// its public products), run as README's five-minute walkthrough does: its `signaling-server`, `room-bot` and
/// `rpc-tool` together with this package's `room-join`.
///
/// `make test` builds the example first (`make examples`) and tells this test where its binaries are
/// (`KS_EXAMPLES_BIN`). Without it, as under a plain `swift test`, the test is disabled, except when `CI=true`.
@Suite struct EmbeddingExampleTests {
    static let binaries = ProcessInfo.processInfo.environment["KS_EXAMPLES_BIN"]

    @Test(.enabled(if: binaries != nil || isCI,
                   "KS_EXAMPLES_BIN is unset: `make test` builds Examples/Embedding (`make examples`) and sets it"),
          .timeLimit(.minutes(2)))
    func theServerTheBotAndTheToolWorkTogetherWithRoomJoin() async throws {
        let token = "token-\(UInt64.random(in: 1...UInt64.max))"
        let environment = ["SIGNALING_TOKEN": token]

        // Given the server, whose first line names its URLs
        let server = try ChildProcess(executable: Self.program("signaling-server"), [], environment: environment)
        let urls = try JSONDecoder().decode([String: String].self, from: Data(#require(await server.nextLine()).utf8))
        let url = try #require(urls["url"]), metricsURL = try #require(urls["metrics"])
        #expect(url.hasPrefix("ws://127.0.0.1:") && metricsURL.hasSuffix("/metrics"))

        // Without the token, room-join is refused before the upgrade (HTTP 401) and exits 4
        let intruder = try ChildProcess("room-join", [url, "--room", "lobby", "--user", "mallory"])
        #expect(try await intruder.exitStatus() == 4)
        #expect(await intruder.stderr.contains("unauthorized"))

        // The bot joins and waits for alice; alice joins with the token, waits for the bot, publishes and says ping
        let bot = try ChildProcess(executable: Self.program("room-bot"), [url, "lobby", "alice"],
                                   environment: environment)
        #expect(try await bot.nextLine() == "joined lobby")
        let alice = try ChildProcess("room-join", [
            url, "--room", "lobby", "--user", "alice", "--token", token, "--wait-for", "bot", "--publish",
            "--message", "ping", "--json", "--reconnect-for", "0",
        ])
        #expect(try await bot.nextLine() == "alice is here")
        #expect(try await bot.nextLine() == "published")
        #expect(try await bot.nextLine() == "subscribed to everyone")
        // Then the bot sees alice publish and answers her ping (in either order), and alice reads the pong
        var said: Set<String> = []
        while said != ["alice publishes", "pong to alice"] {
            said.insert(try #require(await bot.nextLine()))
        }
        try await Self.awaitEvent(of: alice, "message", from: "bot") { $0["text"] as? String == "pong" }

        // rpc-tool's typed call gets its typed answer, and the typed notification that came before it
        let tool = try ChildProcess(executable: Self.program("rpc-tool"), [url, "ada"], environment: environment)
        #expect(try await tool.exitStatus() == 0)
        #expect(await tool.remainingLines() == ["greeting: hello, ada (#1)", "notified: greeted ada"])
        // and without the token it is refused, typed (RPCError.unauthorized), exit 4
        let refusedTool = try ChildProcess(executable: Self.program("rpc-tool"), [url, "eve"],
                                           environment: ["SIGNALING_TOKEN": "wrong"])
        #expect(try await refusedTool.exitStatus() == 4)
        #expect(await refusedTool.stderr.contains("unauthorized"))

        // /metrics shows the server's counters: the joins and the custom request answered
        let metrics = try await RawHTTPClient.get(port: #require(RawHTTPClient.port(of: metricsURL)), "/metrics")
        #expect(metrics.status == 200)
        let joins = metrics.text.split(separator: "\n").filter {
            $0.hasPrefix("signaling_requests_total{") && $0.contains(#"method="joinRoom""#)
                && $0.contains(#"outcome="result""#)
        }
        #expect(joins.map { $0.split(separator: " ").last } == ["2"], "\(metrics.text)")
        #expect(metrics.text.contains(#"method="customRequest""#), "\(metrics.text)")

        // SIGTERM: the bot leaves the room (alice sees it) and exits 0
        bot.send(SIGTERM)
        #expect(try await bot.nextLine() == "left")
        #expect(try await bot.exitStatus() == 0)
        try await Self.awaitEvent(of: alice, "participantLeft", from: "bot")

        // SIGTERM: the server shuts down gracefully (exit 0), closing alice's session, so that she exits 5
        server.send(SIGTERM)
        #expect(try await server.exitStatus() == 0)
        #expect(try await alice.exitStatus() == 5)
    }

    /// The example's program `name`, from `KS_EXAMPLES_BIN`; a missing one fails the test with what to run.
    static func program(_ name: String) throws -> URL {
        let directory = try #require(binaries, "KS_EXAMPLES_BIN is unset: run `make examples`, then `make test`")
        let url = URL(fileURLWithPath: directory).appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw MissingExample(path: url.path)
        }
        return url
    }

    /// The embedding example was not built.
    struct MissingExample: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path) is missing: run `make examples` (`make test` does) to build Examples/Embedding" }
    }

    /// room-join exited before printing what the test waited for.
    struct StdoutEnded: Error, CustomStringConvertible {
        let what: String
        var description: String { "room-join's stdout ended before \(what)" }
    }

    /// Reads `child`'s `--json` lines until one is `event` from `user` for which `matches` holds.
    static func awaitEvent(of child: ChildProcess, _ event: String, from user: String,
                           matches: @escaping @Sendable ([String: Any]) -> Bool = { _ in true }) async throws {
        try await withDeadline(.seconds(10), "room-join to print \(event) from \(user)") {
            while let line = try await child.nextLine(within: .seconds(3600)) {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      object["event"] as? String == event, object["user"] as? String == user, matches(object)
                else { continue }
                return
            }
            throw StdoutEnded(what: "\(event) from \(user)")
        }
    }
}
