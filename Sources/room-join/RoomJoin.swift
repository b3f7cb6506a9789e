import ArgumentParser
import Foundation
import JSONRPC
import RoomClient
import RoomProtocol

/// `room-join <ws-url> --room R --user U`: joins a Kurento room, prints the participants, then prints every
/// event until the connection ends (issue 7 step 2, basic run).
@main
struct RoomJoin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "room-join",
        abstract: "Join a Kurento room from a terminal and print what happens in it.",
        discussion: """
            Exit codes: 0 ok; 2 usage; 3 cannot connect; 4 join refused (the room error code is printed); \
            5 protocol error, timeout or lost connection; 6 evicted or room closed.
            """
    )

    @Argument(help: "The room server's WebSocket endpoint, e.g. ws://127.0.0.1:8443/room.")
    var url: String

    @Option(help: "The room to join (created on first join).")
    var room: String

    @Option(help: "Your user name (no '_').")
    var user: String

    @Option(help: "Seconds to wait for each response (the first attempt; the retry doubles it).")
    var timeout: Double = 5

    func validate() throws {
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number") }
    }

    /// Parses and runs, with usage errors exiting 2 (not ArgumentParser's 64) as the exit codes promise.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                exit(withError: ExitCode(2))
            }
            exit(withError: error)
        }
    }

    func run() async throws {
        let client = RoomClient(room: Room(username: user, roomName: room, url: url),
                                configuration: .init(requestTimeout: .milliseconds(Int(timeout * 1000))))
        let events = client.events
        do {
            try await client.connect()
        } catch {
            if case RPCError.connectionClosed(let end?) = error {
                Output.error("cannot connect to \(url): \(end.reason)")
            } else {
                Output.error("cannot connect to \(url): \(error)")
            }
            throw ExitCode(3)
        }
        do {
            let peers = try await client.join()
            Output.line("joined \(room) as \(user); participants: "
                        + (peers.isEmpty ? "none" : peers.map(\.description).joined(separator: ", ")))
        } catch let error as RoomError {
            Output.error("join refused: \(error)")
            throw ExitCode(4)
        } catch {
            Output.error("join failed: \(error)")
            throw ExitCode(5)
        }
        for try await event in events {
            Output.line(EventText.line(for: event))
            switch event {
            case .participantEvicted, .roomClosed:
                throw ExitCode(6)
            case .connectionStateChanged(.disconnected(let end)):
                Output.error("connection ended: \(end.map(\.description) ?? "closed")")
                throw ExitCode(5)
            default:
                break
            }
        }
    }
}
