import Foundation
import JSONRPCWebSocket
import TestSupport
import Testing

/// Issue 31, item 17: a message over `--max-message-size` closes its connection with 1009, and the server says so
/// in its log and in `signaling_closes_total{reason="message_too_big"}` (docs/operations.md#metrics).
@Suite("room-server oversize closes")
struct OversizeCloseCLITests {
    @Test("a message over --max-message-size is closed with 1009, logged, and counted with its reason")
    func anOversizeCloseIsLoggedAndCounted() async throws {
        let server = try await RoomServerProcess.start(["--max-message-size", "1024"])
        let port = try #require(RawHTTPClient.port(of: server.url))

        // When a client sends 2 KB
        let socket = try await WebSocketConnection.connect(to: server.url)
        try await socket.send(text: String(repeating: "x", count: 2048))
        let close = try await withDeadline(.seconds(10), "the 1009 close") { await socket.closeInfo }
        #expect(close.code == .messageTooBig, "\(close)")

        // Then the scrape counts the close under its reason, and the log says why the server closed it
        try await waitUntil("the oversize close counted", asyncCondition: {
            let metrics = try? await RawHTTPClient.get(port: port, "/metrics").text
            return metrics?.contains(#"signaling_closes_total{reason="message_too_big"} 1"#) == true
        })
        try await waitUntil("the oversize close logged") {
            server.child.stderrSoFar.contains("connection closed: message too big")
        }
        let line = server.child.stderrSoFar.split(separator: "\n").first { $0.contains("message too big") } ?? ""
        #expect(line.contains("code=1009") && line.contains("message exceeds 1024 bytes"), "\(line)")
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
    }
}
