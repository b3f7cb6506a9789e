import ArgumentParser
import CLISupport
import Foundation
import JSONRPC
import RoomServer
import SignalingSupport

/// A room server of your own, built on ``RoomServer``: `room-custom-server [--host ADDRESS] [--port N]`.
///
/// Besides the Room protocol it answers `customRequest`: `{"type": "whoami"}` returns the caller's user and room,
/// anything else is returned as sent. The first line on stdout is the URL it serves; SIGINT or SIGTERM shuts it
/// down.
@main
struct CustomServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "room-custom-server",
        abstract: "A room server of your own: the Room protocol plus a customRequest handler.",
        discussion: """
            customRequest {"type": "whoami"} returns the caller's user and room; anything else is returned as \
            sent. The first line on stdout is the URL to dial, e.g. ws://127.0.0.1:41234/room. SIGINT or SIGTERM \
            shuts it down.

            Exit codes: 0 shut down by SIGINT or SIGTERM; 1 cannot listen (e.g. the port is in use); 2 usage error.
            """
    )

    @OptionGroup var listen: ListenOptions

    static func main() async { await mainExitingTwoOnUsageErrors() }

    func run() async throws {
        // Installed before listening, so no signal is missed; the sources live until `run` returns.
        let (stop, sources) = ProcessSignals.stream([SIGINT, SIGTERM], label: "room-custom-server.signals")
        defer { sources.forEach { $0.cancel() } }
        let server: RoomServer
        do {
            server = try await RoomServer.start(.init(host: listen.host, port: listen.port, customRequest: { request in
                guard request.params["type"]?.stringValue == "whoami" else { return request.params }
                return ["user": request.user.map(JSONValue.string) ?? nil,
                        "room": request.room.map(JSONValue.string) ?? nil]
            }))
        } catch {
            FileHandle.standardError.write(Data("room-custom-server: cannot listen on \(listen.host):\(listen.port): \(error)\n".utf8))
            throw ExitCode.failure
        }
        FileHandle.standardOutput.write(Data((server.url + "\n").utf8))
        for await _ in stop { break }
        await server.shutdown()
    }
}
