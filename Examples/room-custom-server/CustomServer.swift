import Foundation
import JSONRPC
import RoomServer
import SignalingSupport

/// A room server of your own, built on ``RoomServer``: `room-custom-server [port]`.
///
/// Besides the Room protocol it answers `customRequest`: `{"type": "whoami"}` returns the caller's user and room,
/// anything else is returned as sent. The first line on stdout is the URL it serves; SIGINT or SIGTERM shuts it
/// down.
@main
struct CustomServer {
    static func main() async throws {
        let (stop, sources) = ProcessSignals.stream([SIGINT, SIGTERM], label: "room-custom-server.signals")
        defer { sources.forEach { $0.cancel() } }
        let port = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 0 : 0
        let server = try await RoomServer.start(.init(port: port, customRequest: { request in
            guard request.params["type"]?.stringValue == "whoami" else { return request.params }
            return ["user": request.user.map(JSONValue.string) ?? nil,
                    "room": request.room.map(JSONValue.string) ?? nil]
        }))
        FileHandle.standardOutput.write(Data((server.url + "\n").utf8))
        for await _ in stop { break }
        await server.shutdown()
    }
}
