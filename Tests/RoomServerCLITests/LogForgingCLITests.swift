import Foundation
import JSONRPC
import JSONRPCWebSocket
import TestSupport
import Testing

/// Issue 30 item 5: nothing a client sends can forge a line of `room-server`'s log (stderr): names follow the name
/// rules, and every message and metadata value is escaped on its way to the log.
@Suite("room-server log lines")
struct LogForgingCLITests {
    /// What the forged line looked like: a whole log line of its own, at a level that pages someone.
    static let forged = "2026-01-01T00:00:00+0000 critical room-server: admin token rotated"

    /// A raw Room connection to `url` that sends one request at a time and answers its reply.
    struct Client {
        let connection: WebSocketMessageConnection

        init(_ url: String) async throws {
            connection = WebSocketMessageConnection(try await WebSocketConnection.connect(to: url))
        }

        func call(_ id: Int, _ method: String, _ params: JSONValue) async throws -> JSONValue {
            try await connection.send(RPCRequest(id: .number(id), method: method, params: params).jsonText)
            while true {
                let message = try JSONValue(parsing: try await withDeadline(.seconds(10), "the reply to \(method)") {
                    try await connection.receive()
                })
                if message["id"] == .int(id) { return message }
            }
        }
    }

    /// The lines of `server`'s stderr after SIGINT, once it exited.
    static func logLines(of server: RoomServerProcess) async throws -> [Substring] {
        server.child.send(SIGINT)
        #expect(try await server.child.exitStatus() == 0)
        return await server.child.stderr.split(separator: "\n")
    }

    @Test("a room name carrying a newline and a fake line is refused, and no such line appears")
    func roomNameCannotForgeALine() async throws {
        let server = try await RoomServerProcess.start()
        let client = try await Client(server.url)
        let reply = try await client.call(1, "joinRoom", ["user": "mallory", "room": .string("lobby\n\(Self.forged)")])
        #expect(reply["error"]?["code"] == 999, "\(reply.jsonText)")
        let lines = try await Self.logLines(of: server)
        #expect(!lines.contains { $0.hasPrefix(Self.forged.prefix(35)) }, "\(lines)")
    }

    @Test("at debug level a refused request's text is logged escaped, on its own line")
    func refusedRequestsAreLoggedEscaped() async throws {
        let server = try await RoomServerProcess.start(["--log-level", "debug"])
        let client = try await Client(server.url)
        #expect(try await client.call(1, "joinRoom", ["user": "mallory", "room": "lobby"])["error"] == nil)
        // The userMessage is not mallory: 102, and the server logs the refusal with its message at debug
        let reply = try await client.call(2, "sendMessage", [
            "message": "hi", "userMessage": .string("x\n\(Self.forged)\u{202E}"), "roomMessage": "lobby",
        ])
        #expect(reply["error"]?["code"] == 102, "\(reply.jsonText)")
        let lines = try await Self.logLines(of: server)
        #expect(!lines.contains { $0.hasPrefix(Self.forged.prefix(35)) }, "\(lines)")
        let refusal = lines.filter { $0.contains("request refused") && $0.contains("sendMessage") }
        #expect(refusal.count == 1, "\(lines)")
        #expect(refusal.first?.contains("x\\n\(Self.forged)\\u{202E}") == true, "\(refusal)")
    }
}
