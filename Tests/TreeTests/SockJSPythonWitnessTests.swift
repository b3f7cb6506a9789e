import Foundation
import JSONRPC
import RoomServer
import TestSupport
import Testing

/// A SockJS client that shares no code with this package, Python `websockets` with the standard library
/// (`scripts/python_sockjs_tree_client.py`), against Tree's SockJS transport (docs/wire-protocol.md#sockjs,
/// docs/testing.md#witnesses).
@Suite struct SockJSPythonWitnessTests {
    static let websocketsMissing = Python.missing("websockets")

    @Test(.enabled(if: websocketsMissing == nil || isCI, "needs python3 with websockets (required when CI=true)"))
    func pythonSockJSClientCreatesTreesAndIsClosedOnBrokenData() async throws {
        if let reason = Self.websocketsMissing {
            Issue.record("CI=true demands the third-party client: \(reason)")
            return
        }
        let server = try await RoomServer.start(.init())
        defer { Task { await server.shutdown() } }

        // When the python client runs against /kurento-tree (one python process, off the cooperative pool)
        let script = SchemaValidation.packageRoot.appendingPathComponent("scripts/python_sockjs_tree_client.py").path
        let base = server.httpURL + "/kurento-tree"
        let (status, output) = try await withDeadline(.seconds(60), "the python SockJS client") {
            try await withCheckedThrowingContinuation { continuation in
                Thread.detachNewThread { continuation.resume(with: Result { try Python.run([script, base]) }) }
            }
        }

        // Then /info, the open frame, two trees from one frame, and on broken data the close frame and 1007
        #expect(status == 0, "python_sockjs_tree_client.py: \(output)")
        let lines = output.split(separator: "\n").map(String.init)
        let info = try JSONValue(parsing: String(try #require(lines.first { $0.hasPrefix("INFO ") }).dropFirst(5)))
        #expect(info["websocket"] == true && info["cookie_needed"] == false && info["origins"] == ["*:*"])
        #expect(lines.contains("OPEN o"))
        let replies = try lines.filter { $0.hasPrefix("REPLY ") }.map { try JSONValue(parsing: String($0.dropFirst(6))) }
        #expect(Set(replies.compactMap { $0["id"] }) == [1, 2], "got \(replies)")
        #expect(Set(replies.compactMap { $0["result"]?["value"]?.stringValue }).count == 2, "got \(replies)")
        #expect(lines.contains(#"CLOSE c[1007,""]"#), "got \(output)")
        #expect(lines.contains("WSCLOSE 1007"), "got \(output)")
    }
}
