import Foundation
import JSONRPC
import RoomClient
import RoomProtocol
import RoomServer
import TestSupport
import Testing

/// Every way `room-join` ends leaves no participant behind: the server (an in-process ``RoomServer`` whose
/// reconnection window, 60 s, would otherwise keep a ghost) no longer lists the user once the process has exited,
/// and the same name joins again at once.
@Suite("room-join exits")
struct RoomJoinExitTests {
    /// One way to end a run, with its exit status.
    enum ExitPath: String, CaseIterable, Sendable {
        case error, duration, waitTimeout, sigint, sigterm, endOfInput

        var arguments: [String] {
            switch self {
            case .error: ["--private", "nobody:hi"]
            case .duration: ["--duration", "0.2"]
            case .waitTimeout: ["--wait-for", "carol", "--wait-timeout", "0.3"]
            case .sigint, .sigterm: []
            case .endOfInput: ["--interactive"]
            }
        }

        var status: Int32 {
            switch self {
            case .error, .waitTimeout: 5
            case .duration, .endOfInput: 0
            case .sigint: 130
            case .sigterm: 143
            }
        }
    }

    @Test("each exit path leaves the room and ends the session: the server lists no ghost, a retry is not refused 104",
          arguments: ExitPath.allCases)
    func leavesOnEveryExit(_ path: ExitPath) async throws {
        let server = try await RoomServer.start(.init(reconnectionWindow: .seconds(60)))
        let child = try ChildProcess("room-join", [server.url, "--room", "room1", "--user", "alice", "--json",
                                                   "--reconnect-for", "0", "--timeout", "20"] + path.arguments,
                                     writableInput: path == .endOfInput)
        _ = try await Self.lines(of: child) { $0.contains(#""event":"joined""#) }
        // (the paths that end on their own may be over already)
        if [.sigint, .sigterm, .endOfInput].contains(path) { #expect(server.rooms["room1"] == ["alice"]) }

        switch path {
        case .sigint: child.send(SIGINT)
        case .sigterm: child.send(SIGTERM)
        case .endOfInput: try child.closeInput()
        case .error, .duration, .waitTimeout: break
        }

        let status = try await child.exitStatus()
        let stderr = await child.stderr
        #expect(status == path.status, "\(stderr)")
        let lines = await child.remainingLines()
        #expect(lines.last?.contains(#""event":"left""#) == true, "\(lines)")
        // Then the server's own view has no alice (she left before the process exited)
        #expect(server.rooms["room1"]?.contains("alice") != true, "a ghost: \(server.rooms)")
        // And alice can come back at once under the same name
        let again = RoomClient(room: Room(username: "alice", roomName: "room1", url: server.url),
                               configuration: .init(reconnect: .off, heartbeat: .off))
        await #expect(throws: Never.self) { try await again.join() }
        await again.disconnect()
        await server.shutdown()
    }

    @Test("SIGINT while reconnecting to a dead server exits 130 at once, without trying to leave")
    func interruptWhileReconnecting() async throws {
        let server = try await RoomServer.start(.init())
        let child = try ChildProcess("room-join", [server.url, "--room", "room1", "--user", "alice", "--json",
                                                   "--reconnect-for", "60"])
        _ = try await Self.lines(of: child) { $0.contains(#""event":"joined""#) }
        await server.shutdown()
        _ = try await Self.lines(of: child) { $0.contains(#""state":"reconnecting""#) }

        child.send(SIGINT)

        // (a behavioural bound: leaving would wait for a reconnection that never comes, 15 s and more)
        #expect(try await child.exitStatus(within: .seconds(2)) == 130)
        #expect(await child.remainingLines().last?.contains(#""reason":"interrupted""#) == true)
        let stderr = await child.stderr
        #expect(stderr.contains("interrupted while not connected"), "\(stderr)")
        #expect(!stderr.contains("cannot leave"), "\(stderr)")
    }

    @Test("after a 1008 close (a flood of piped lines) room-join sends nothing more, says why once and exits 5")
    func fatalCloseStops() async throws {
        var limits = RoomServerLimits()
        limits.maxRequestsPerSecond = 1
        let server = try await RoomServer.start(.init(limits: limits))
        // --stock-kurento does not ask the server for its limit and paces at 20 requests a second: two lines in one
        // second are twice the server's 1, so the server closes the session with 1008 (room-join otherwise paces
        // under the limit the server advertises, and is never closed for its rate).
        let child = try ChildProcess("room-join", [server.url, "--room", "room1", "--user", "alice", "--stock-kurento",
                                                   "--interactive", "--timeout", "20"], writableInput: true)
        _ = try await Self.lines(of: child) { $0.hasPrefix("joined") }

        try child.write((1...200).map { "line \($0)\n" }.joined())

        #expect(try await child.exitStatus(within: .seconds(20)) == 5)
        let stderr = await child.stderr
        let ended = stderr.split(separator: "\n").filter { $0.contains("connection ended") }
        #expect(ended.count == 1 && ended.first?.contains("1008") == true && ended.first?.contains("not reconnecting") == true,
                "\(stderr)")
        // No line went out on a fresh session that never joined (the server would answer 102)
        #expect(!stderr.contains("102") && !stderr.contains("not in a room"), "\(stderr)")
        await server.shutdown()
    }

    @Test("piped chat then /leave: the sender's own message line is printed before left")
    func ownEchoBeforeLeaving() async throws {
        let server = try await RoomServer.start(.init())
        let child = try ChildProcess("room-join", [server.url, "--room", "room1", "--user", "alice", "--json",
                                                   "--interactive", "--timeout", "20"], writableInput: true)
        _ = try await Self.lines(of: child) { $0.contains(#""event":"joined""#) }

        try child.write("hello there\n/leave\n")

        #expect(try await child.exitStatus() == 0)
        let events = await child.remainingLines().compactMap { try? JSONValue(parsing: $0) }
        let echo = events.firstIndex { $0["event"] == "message" && $0["text"] == "hello there" && $0["user"] == "alice" }
        let left = events.firstIndex { $0["event"] == "left" }
        #expect(echo != nil && left != nil && echo! < left!, "\(events)")
        await server.shutdown()
    }

    /// `child`'s stdout lines up to and including the first one for which `predicate` holds.
    static func lines(of child: ChildProcess, until predicate: (String) -> Bool) async throws -> [String] {
        var seen: [String] = []
        while let line = try await child.nextLine() {
            seen.append(line)
            if predicate(line) { return seen }
        }
        Issue.record("room-join ended before the expected line; stdout: \(seen); stderr: \(child.stderrSoFar)")
        return seen
    }
}
