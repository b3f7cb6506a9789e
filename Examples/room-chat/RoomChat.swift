import Foundation
import JSONRPC
import RoomClient

/// A terminal chat over ``RoomClient``: `room-chat <ws-url> <room> <user>`.
///
/// It joins, prints the participants and then every room event. Each line typed is sent to the room;
/// `/msg USER text` sends a private message. End of input (Ctrl-D) leaves the room.
@main
struct RoomChat {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 4 else {
            FileHandle.standardError.write(Data("usage: room-chat <ws-url> <room> <user>\n".utf8))
            exit(2)
        }
        let client = RoomClient(room: Room(username: arguments[3], roomName: arguments[2], url: arguments[1]))
        let events = client.events  // subscribed before joining, so nothing is missed
        try await client.connect()
        let peers = try await client.join()
        let here = peers.isEmpty ? "nobody" : peers.map(\.description).joined(separator: ", ")
        show("joined \(arguments[2]); here: \(here)")

        let printer = Task {
            for try await event in events {
                switch event {
                case .message(let text, let from): show("\(from): \(text)")
                case .privateMessage(let text, let from): show("\(from) (private): \(text)")
                case .participantJoined(let peer): show("* \(peer.identifier) joined")
                case .participantLeft(let peer): show("* \(peer.identifier) left")
                case .connectionStateChanged(let state): show("* \(state)")
                case .participantEvicted, .roomClosed:
                    show("* you are out of the room")
                    exit(6)
                default: show("* \(event)")
                }
            }
        }
        for await line in standardInputLines() where !line.isEmpty {
            if line.hasPrefix("/msg "), let space = line.dropFirst(5).firstIndex(of: " ") {
                let user = String(line.dropFirst(5)[..<space])
                try await client.sendPrivateMessage(String(line[line.index(after: space)...]), to: user)
            } else {
                try await client.sendMessage(line)
            }
        }
        printer.cancel()
        try await client.leave()
        await client.disconnect()
    }

    /// Prints `line` at once, even when stdout is a pipe.
    static func show(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// The lines of stdin. They are read on a thread of their own: `readLine` blocks, which a cooperative thread
    /// must never do.
    static func standardInputLines() -> AsyncStream<String> {
        AsyncStream { continuation in
            Thread {
                while let line = readLine() { continuation.yield(line) }
                continuation.finish()
            }.start()
        }
    }
}
