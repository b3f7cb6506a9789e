import Foundation
import JSONRPC
import RoomClient
import RoomServer
import Testing
import TestSupport

/// The room examples meet a user's mistakes: each ends with one line on stderr and its exit code (README's exit-code
/// table), never a crash ("Fatal error: Error raised at top level", status 132).
extension ExamplesTests {
    /// The one line `process` wrote on stderr, once it has exited with `status`.
    static func expectOneLine(
        _ process: ChildProcess, exits status: Int32, containing words: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let exited = try await process.exitStatus()
        let stderr = await process.stderr
        #expect(exited == status, "stderr: \(stderr)", sourceLocation: sourceLocation)
        let lines = stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1, "stderr: \(stderr)", sourceLocation: sourceLocation)
        for word in words { #expect(stderr.contains(word), "stderr: \(stderr)", sourceLocation: sourceLocation) }
        #expect(!stderr.contains("Fatal error"), sourceLocation: sourceLocation)
    }

    @Test func roomChatOnATakenNameExits4WithTheServersReason() async throws {
        let server = try await RoomServer.start(.init())
        let bob = RoomClient(room: Room(username: "bob", roomName: "lobby", url: server.url))
        try await bob.connect()
        try await bob.join()

        let chat = try ChildProcess("room-chat", [server.url, "lobby", "bob"])
        try await Self.expectOneLine(chat, exits: 4, containing: ["room-chat: cannot join lobby as bob:", "already exists"])
        await bob.disconnect()
        await server.shutdown()
    }

    @Test func roomChatRefusesAnInvalidNameBeforeConnecting() async throws {
        // Nothing listens on the port: the name is refused locally, as a usage error, before any connection.
        let url = "ws://127.0.0.1:\(try SilentTCPListener.closedPort())/room"
        let chat = try ChildProcess("room-chat", [url, "lobby", "a_b"])
        try await Self.expectOneLine(chat, exits: 2, containing: ["room-chat:", "'_'", "(see room-chat --help)"])
    }

    @Test func roomChatOnARefusedConnectionExits3() async throws {
        let url = "ws://127.0.0.1:\(try SilentTCPListener.closedPort())/room"
        let chat = try ChildProcess("room-chat", [url, "lobby", "alice"])
        try await Self.expectOneLine(chat, exits: 3, containing: ["room-chat: cannot connect to \(url):"])
        let lines = await chat.remainingLines()
        #expect(lines.allSatisfy { !$0.contains("here:") }, "\(lines)")
    }

    @Test func roomChatReportsAPrivateMessageToNobodyAndGoesOn() async throws {
        let server = try await RoomServer.start(.init())
        let bob = RoomClient(room: Room(username: "bob", roomName: "lobby", url: server.url))
        let events = bob.events
        try await bob.connect()
        try await bob.join()

        let chat = try ChildProcess("room-chat", [server.url, "lobby", "alice"], writableInput: true)
        while let line = try await chat.nextLine(), !line.hasPrefix("joined lobby") {}
        try chat.write("/msg nobody hi\n")
        try await waitUntil("the refusal on stderr") { chat.stderrSoFar.contains("\n") }
        #expect(chat.stderrSoFar.hasPrefix("room-chat: cannot send a private message to nobody:"), "\(chat.stderrSoFar)")
        // The session goes on: the next line reaches bob
        try chat.write("still here\n")
        let heard = try await withDeadline(.seconds(10), "bob to hear alice") { () async throws -> String? in
            for try await event in events { if case .message(let text, "alice") = event { return text } }
            return nil
        }
        #expect(heard == "still here")
        try chat.closeInput()
        #expect(try await chat.exitStatus() == 0)
        await bob.disconnect()
        await server.shutdown()
    }

    /// Issue 31 item 23: the connection comes first, and an empty room does not read like a user called "nobody".
    @Test func roomChatSaysItConnectedBeforeWhoIsHere() async throws {
        let server = try await RoomServer.start(.init())
        let chat = try ChildProcess("room-chat", [server.url, "lobby", "alice"])
        let status = try await chat.exitStatus(), stderr = await chat.stderr
        #expect(status == 0, "\(stderr)")
        let lines = await chat.remainingLines()
        let connected = lines.firstIndex(of: "* connected"), joined = lines.firstIndex(of: "joined lobby; nobody else is here")
        #expect(connected != nil && joined != nil && connected! < joined!, "\(lines)")
        #expect(!lines.contains { $0.contains("here: nobody") }, "\(lines)")
        await server.shutdown()
    }

    @Test func theCustomServerOnAPortInUseExits1() async throws {
        let first = try ChildProcess("room-custom-server", ["--port", "0"])
        let url = try #require(try await first.nextLine())
        let port = try #require(URLComponents(string: url)?.port)

        let second = try ChildProcess("room-custom-server", ["--port", "\(port)"])
        try await Self.expectOneLine(second, exits: 1, containing: ["room-custom-server: cannot listen on 127.0.0.1:\(port)"])
        first.send(SIGINT)
        #expect(try await first.exitStatus() == 0)
    }

    @Test func theCustomServerHonoursPort() async throws {
        let port = try SilentTCPListener.closedPort()
        let server = try ChildProcess("room-custom-server", ["--port", "\(port)"])
        #expect(try await server.nextLine() == "ws://127.0.0.1:\(port)/room")
        server.send(SIGTERM)
        #expect(try await server.exitStatus() == 0)
    }
}
