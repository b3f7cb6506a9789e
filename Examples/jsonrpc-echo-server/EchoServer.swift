import ArgumentParser
import CLISupport
import Dispatch
import Foundation
import JSONRPC
import JSONRPCWebSocket
import SignalingSupport

/// A plain JSON-RPC 2.0 server over WebSocket (Kurento conventions off): `echo` returns its params, and the methods
/// of the JSON-RPC 2.0 specification's §7 examples answer as the specification shows
/// (``JSONRPCServer/registerSpecificationExamples()``).
///
/// The first line on stdout is the URL it serves, e.g. `ws://127.0.0.1:41234/`. SIGINT or SIGTERM closes every
/// connection with 1001 and exits with status 0.
@main
struct EchoServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jsonrpc-echo-server",
        abstract: "A plain JSON-RPC 2.0 echo server over WebSocket.",
        discussion: """
            The first line on stdout is the URL it serves. SIGINT or SIGTERM closes every connection with 1001.

            Exit codes: 0 shut down by SIGINT or SIGTERM; 1 cannot listen (e.g. the port is in use); 2 usage error.
            """
    )

    @OptionGroup var listen: ListenOptions

    static func main() async { await mainExitingTwoOnUsageErrors() }

    func run() async throws {
        // Installed before listening, so no signal is missed; the sources live until `run` returns.
        let (stop, sources) = ProcessSignals.stream([SIGINT, SIGTERM], label: "jsonrpc-echo-server.signals")
        defer { sources.forEach { $0.cancel() } }
        let server = JSONRPCServer(configuration: .init(conventions: .plain))
        server.registerSpecificationExamples()
        var webSocket = WebSocketServerConfiguration()
        webSocket.host = listen.host
        webSocket.port = listen.port
        let listener: JSONRPCWebSocketListener
        do {
            listener = try await server.listen(on: webSocket)
        } catch {
            FileHandle.standardError.write(Data("jsonrpc-echo-server: cannot listen on \(listen.host):\(listen.port): \(error)\n".utf8))
            throw ExitCode.failure
        }
        // Written straight to the file descriptor: unbuffered, so a reader sees the line at once.
        FileHandle.standardOutput.write(Data((listener.url + "\n").utf8))
        for await _ in stop { break }
        await listener.shutdown()
    }
}
