import ArgumentParser
import CLISupport
import Foundation
import JSONRPC
import RoomClient
import RoomProtocol

/// A terminal chat over ``RoomClient``: `room-chat <ws-url> <room> <user>`.
///
/// It connects, joins, prints who is there and then every room event. Each line typed is sent to the room;
/// `/msg USER text` sends a private message. End of input (Ctrl-D) leaves the room.
@main
struct RoomChat: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "room-chat",
        abstract: "A terminal chat in a Kurento room.",
        discussion: """
            Each line typed is sent to the room; '/msg USER text' sends a private message; Ctrl-D (end of input) \
            leaves the room. A message the server refuses is reported on stderr and the chat goes on.

            Exit codes: 0 left at the end of input; 2 usage error (an invalid user or room name too); 3 cannot \
            connect; 4 join refused (e.g. the name is taken); 5 the connection or the room's events ended; 6 evicted \
            or the room closed.
            """
    )

    @Argument(help: "The room server's URL, e.g. ws://127.0.0.1:41234/room.")
    var url: String

    @Argument(help: "The room to join.")
    var room: String

    @Argument(help: "Your user name (no '_').")
    var user: String

    /// The names are checked here, as the server would (RoomNaming), so that a bad one is a usage error.
    func validate() throws {
        guard !room.isEmpty else { throw ValidationError("the room name must not be empty") }
        do {
            _ = try RoomNaming.normalizedUserName(user)
            _ = try RoomNaming.normalizedRoomName(room)
        } catch {
            throw ValidationError(error.message)  // a RoomError: the do block throws nothing else
        }
    }

    static func main() async { await mainExitingTwoOnUsageErrors() }

    /// What the chat reacts to, in one ordered stream: the room's events and the lines typed.
    enum Input: Sendable {
        case event(RoomEvent)
        case eventsEnded
        case line(String)
        case inputEnded
    }

    func run() async throws {
        let client = RoomClient(room: Room(username: user, roomName: room, url: url))
        let (inputs, feed) = AsyncStream<Input>.makeStream()
        let events = client.events  // subscribed before connecting, so nothing is missed
        Task {
            do { for try await event in events { feed.yield(.event(event)) } } catch {}
            feed.yield(.eventsEnded)
        }
        var pending = inputs.makeAsyncIterator()
        do {
            try await client.connect()
        } catch {
            throw Self.fail("cannot connect to \(url): \(Self.reason(error))", exitCode: 3)
        }
        // The connection's opening first: it happened before the join.
        while let input = await pending.next() {
            try show(input)
            if case .event(.connectionStateChanged(.connected)) = input { break }
        }
        let peers: [Peer]
        do {
            peers = try await client.join()
        } catch {
            await client.disconnect()
            throw Self.fail("cannot join \(room) as \(user): \(Self.reason(error))", exitCode: error is RoomError ? 4 : 5)
        }
        Self.show(peers.isEmpty ? "joined \(room); nobody else is here"
                                : "joined \(room); here: \(peers.map(\.description).joined(separator: ", "))")
        Self.readStandardInput(into: feed)
        while let input = await pending.next() {
            switch input {
            case .line(let line) where !line.isEmpty:
                await send(line, client)
            case .inputEnded:
                try? await client.leave()
                await client.disconnect()
                return
            default:
                try show(input)
            }
        }
    }

    /// Prints an event; the end of the stay in the room ends the chat with its exit code.
    func show(_ input: Input) throws {
        switch input {
        case .event(.message(let text, let from)): Self.show("\(from): \(text)")
        case .event(.privateMessage(let text, let from)): Self.show("\(from) (private): \(text)")
        case .event(.participantJoined(let peer)): Self.show("* \(peer.identifier) joined")
        case .event(.participantLeft(let peer)): Self.show("* \(peer.identifier) left")
        case .event(.connectionStateChanged(.disconnected(let end))):
            throw Self.fail("the connection ended: \(end.map(\.description) ?? "closed")", exitCode: 5)
        case .event(.connectionStateChanged(let state)): Self.show("* \(state)")
        case .event(.participantEvicted), .event(.roomClosed): throw Self.fail("you are out of the room", exitCode: 6)
        case .event(let event): Self.show("* \(event)")
        case .eventsEnded: throw Self.fail("the room's events ended", exitCode: 5)
        case .line, .inputEnded: break
        }
    }

    /// Sends one typed line; a refusal is reported on stderr and the chat goes on.
    func send(_ line: String, _ client: RoomClient) async {
        if line.hasPrefix("/msg ") {
            let rest = line.dropFirst(5)
            guard let space = rest.firstIndex(of: " ") else {
                return Self.complain("usage: /msg USER text")
            }
            let to = String(rest[..<space])
            do {
                try await client.sendPrivateMessage(String(rest[rest.index(after: space)...]), to: to)
            } catch {
                Self.complain("cannot send a private message to \(to): \(Self.reason(error))")
            }
        } else {
            do {
                try await client.sendMessage(line)
            } catch {
                Self.complain("cannot send the message: \(Self.reason(error))")
            }
        }
    }

    /// An error in a user's words: the server's message and code for a refusal, the close reason for a connection.
    static func reason(_ error: any Error) -> String {
        switch error {
        case let error as RoomError: "\(error.message) (error \(error.code.rawValue))"
        case RPCError.connectionClosed(let end?): end.reason.isEmpty ? "\(end)" : end.reason
        default: "\(error)"
        }
    }

    /// Reports `problem` on stderr and returns the exit code to throw.
    static func fail(_ problem: String, exitCode: Int32) -> ExitCode {
        complain(problem)
        return ExitCode(exitCode)
    }

    /// One line on stderr.
    static func complain(_ problem: String) {
        FileHandle.standardError.write(Data("room-chat: \(problem)\n".utf8))
    }

    /// Prints `line` at once, even when stdout is a pipe.
    static func show(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Feeds the lines of stdin, then its end. They are read on a thread of their own: `readLine` blocks, which a
    /// cooperative thread must never do.
    static func readStandardInput(into feed: AsyncStream<Input>.Continuation) {
        Thread.detachNewThread {
            while let line = readLine() { feed.yield(.line(line)) }
            feed.yield(.inputEnded)
        }
    }
}
