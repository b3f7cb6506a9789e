import CLISupport
import Foundation
import RoomClient

/// Interactive mode (stdin is a terminal, or `--interactive`): each line typed is a chat message or a command.
extension RoomJoin {
    /// The commands, for `--help` and for the error on an unknown one.
    static let commandsHelp = "/who (participants and streams), /msg USER TEXT (private), "
        + "/custom JSON (a customRequest), /set KEY VALUE (on the first --shared-object; VALUE is JSON, else a string), "
        + "/leave"

    /// The error of `/set` in a run without `--shared-object`.
    static let setNeedsSharedObject = "/set needs a shared object: start room-join with --shared-object NAME"


    /// Whether stdin is read: it is a terminal, or `--interactive` forces it.
    var isInteractive: Bool { interactive || isatty(0) == 1 }

    /// Acts on one line of stdin; returns `true` once the room was left (`/leave`). A failed call or a bad command
    /// is reported, and the session goes on.
    func perform(_ line: String, _ client: RoomClient) async throws -> Bool {
        guard line.hasPrefix("/") else {
            if !line.isEmpty { await sendChat(line, client) }
            return false
        }
        let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        switch words.first {
        case "/leave" where words.count == 1:
            try await leave(client)
            return true
        case "/who" where words.count == 1:
            output.report(.participants(client.peers))
        case "/msg" where words.count == 3:
            let user = String(words[1]), text = String(words[2])
            await sendChat(text, to: user, client)
        case "/msg":
            output.error("usage: /msg USER TEXT")
        case "/custom":
            let json = line.dropFirst("/custom".count).trimmingCharacters(in: .whitespaces)
            do {
                try await sendCustom(try Self.customParams(json), client)
            } catch {
                output.error("cannot send the customRequest: \(Problem.describe(error))")
            }
        case "/set":
            // With --shared-object, SharedObjectWatch took the line before it came here.
            output.error(Self.setNeedsSharedObject)
        default:
            output.error("unknown command \(line) (commands: \(Self.commandsHelp))")
        }
        return false
    }

}
