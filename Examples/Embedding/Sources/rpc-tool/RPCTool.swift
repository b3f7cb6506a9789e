import DemoProtocol
import Foundation
import JSONRPCWebSocket

/// A JSON-RPC tool: `rpc-tool <ws-url> <name>` sends the server's `customRequest` with typed params (``Hello``),
/// prints the typed answer (``Greeting``) and the typed `greeted` notification the server sent before it. The bearer
/// token is `SIGNALING_TOKEN` (default `demo-token`). Exit 1 with the error on stderr when the call fails; 4 when the
/// server refuses the token.
@main
struct RPCTool {
    static func main() async {
        let arguments = DemoProtocol.arguments(count: 2, usage: "rpc-tool <ws-url> <name>")
        let token = ProcessInfo.processInfo.environment["SIGNALING_TOKEN"] ?? "demo-token"
        // The servers of this package dedupe request ids, so a retried call runs once.
        let client = JSONRPCClient(
            url: arguments[0], configuration: .init(reconnect: .off, heartbeat: .off, acknowledgesNotifications: true),
            authToken: token)
        let greeted = client.notifications(Greeted.method, as: Greeted.self)  // before the call: none is missed
        do {
            try await client.connect()
            let greeting = try await client.call(
                "customRequest", params: Hello(name: arguments[1]), as: Greeting.self,
                timeout: .seconds(2), retries: 2)
            print("greeting: \(greeting.text) (#\(greeting.count))")
            // The notification went out before the answer, so it is there already.
            for try await note in greeted {
                print("notified: greeted \(note.name)")
                break
            }
            await client.close()
        } catch RPCError.unauthorized(let reason) {
            FileHandle.standardError.write(Data("rpc-tool: unauthorized: \(reason)\n".utf8))
            exit(4)
        } catch {
            FileHandle.standardError.write(Data("rpc-tool: \(error)\n".utf8))
            exit(1)
        }
    }
}
