import Foundation
import TestSupport
import Testing

/// Issue 30 item 9: `room-server` starts with caps fit for a public network, and `--help` says them.
@Suite("room-server defaults")
struct PublicDefaultsCLITests {
    /// What `--help` must show for each cap (ArgumentParser's `(default: N)`), with the library's unlimited default
    /// replaced by the process's.
    static let helpDefaults = [
        ("--max-connections-per-ip", "100"), ("--max-rooms", "1000"), ("--max-participants-per-room", "100"),
        ("--max-trees", "100"), ("--max-sinks-per-tree", "100"), ("--max-chat-message-bytes", "8192"),
        ("--max-broadcast-bytes-per-second", "1048576"),
    ]

    @Test("--help shows every cap with its default")
    func helpShowsTheDefaults() async throws {
        let help = try ChildProcess("room-server", ["--help"])
        #expect(try await help.exitStatus() == 0)
        // One option's help per entry: from its name to the next option
        let text = await help.remainingLines().joined(separator: " ").split(separator: " ").joined(separator: " ")
        for (option, value) in Self.helpDefaults {
            let start = try #require(text.range(of: "  \(option) ") ?? text.range(of: " \(option) <"), "\(option) is missing")
            let rest = text[start.upperBound...]
            let entry = rest.prefix(upTo: rest.range(of: " --")?.lowerBound ?? rest.endIndex)
            #expect(entry.contains("(default: \(value))"), "\(option): \(entry)")
        }
    }

    @Test("3,000 sockets from one address: the first 100 are upgraded, every later one gets HTTP 429")
    func idleSocketsFromOneAddressAreCapped() async throws {
        let server = try await RoomServerProcess.start()
        let port = try #require(URLComponents(string: server.url)?.port)
        var held: [RawTCPClient] = []
        var statuses: [Int: Int] = [:]
        for _ in 0..<3000 {
            let socket = try RawTCPClient(port: port)
            try socket.sendUpgradeRequest(path: "/room")
            let status = await socket.readStatusCode() ?? 0
            statuses[status, default: 0] += 1
            if status == 101 { held.append(socket) }  // upgraded and idle, kept open to the end
        }
        #expect(statuses == [101: 100, 429: 2900], "\(statuses)")
        // The server still serves: a probe answers
        let health = try RawTCPClient(port: port)
        try health.write(Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        #expect(await health.readStatusCode() == 200)
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
        withExtendedLifetime(held) {}
    }

    @Test("--max-trees and --max-sinks-per-tree reach the server: one tree more, or one sink more, gets Tree error 2")
    func treeLimitsAreFlags() async throws {
        let server = try await RoomServerProcess.start(["--max-trees", "1", "--max-sinks-per-tree", "1"])
        let treeURL = TreeIdsCLITests.treeURL(server.url)
        let full = try ChildProcess("tree-join", [treeURL, "--sinks", "2", "--duration", "0.05"])
        #expect(try await full.exitStatus() == 4)
        let fullSaid = await full.stderr
        #expect(fullSaid.contains("is full (limit 1 sinks)"), "\(fullSaid)")
        let host = try ChildProcess("tree-join", [treeURL, "--sinks", "1"])
        _ = try await lines(of: host) { $0.hasPrefix("sink 1") }
        let second = try ChildProcess("tree-join", [treeURL, "--sinks", "0", "--duration", "0.05"])
        #expect(try await second.exitStatus() == 4)
        let secondSaid = await second.stderr
        #expect(secondSaid.contains("too many trees (limit 1)"), "\(secondSaid)")
        host.send(SIGINT)
        #expect(try await host.exitStatus() == 130)
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
    }

    @Test("a cap of 0 is no limit, and a negative one a usage error (exit 2)")
    func zeroIsNoLimit() async throws {
        for option in ["--max-connections-per-ip", "--max-rooms", "--max-participants-per-room", "--max-trees",
                       "--max-sinks-per-tree"] {
            let child = try ChildProcess("room-server", ["--port", "0", "\(option)=-1"])
            #expect(try await child.exitStatus() == 2, "\(option) -1")
            let said = await child.stderr
            #expect(said.contains("\(option) must be 0 or more"), "\(said)")
        }
        let server = try await RoomServerProcess.start(["--max-connections-per-ip", "0"])
        let port = try #require(URLComponents(string: server.url)?.port)
        var held: [RawTCPClient] = []
        for _ in 0..<150 {
            let socket = try RawTCPClient(port: port)
            try socket.sendUpgradeRequest(path: "/room")
            #expect(await socket.readStatusCode() == 101)
            held.append(socket)
        }
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
        withExtendedLifetime(held) {}
    }
}
