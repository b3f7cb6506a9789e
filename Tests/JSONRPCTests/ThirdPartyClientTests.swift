import Foundation
import JSONRPC
import TestSupport
import Testing

/// A client that shares no code with this package, Python `websockets` sending raw JSON text
/// (`scripts/python_echo_client.py`), against the built `jsonrpc-echo-server` example (docs/testing.md#witnesses).
@Suite struct ThirdPartyClientTests {
    static let websocketsMissing = Python.missing("websockets")

    @Test(.enabled(if: websocketsMissing == nil || isCI, "needs python3 with websockets (required when CI=true)"))
    func pythonClientGetsExactEchoRepliesFromTheExampleServer() async throws {
        if let reason = Self.websocketsMissing {
            Issue.record("CI=true demands the third-party client: \(reason)")
            return
        }
        // Given the example server, started as its own process
        let server = try await ExampleServerProcess.launch()
        #expect(server.url.wholeMatch(of: /ws:\/\/127\.0\.0\.1:[0-9]+\//) != nil, "first line: \(server.url)")

        // When the python client sends its echo requests (one python process)
        let script = SchemaValidation.packageRoot.appendingPathComponent("scripts/python_echo_client.py").path
        let run = await finallyStopping(server) {
            await Self.detached { try Python.run([script, server.url]) }
        }
        let (status, output) = try run.get()

        // Then every reply is exactly the expected one, in order (a batch's replies in any order, §6), and the
        // notifications got none
        #expect(status == 0, "python_echo_client.py: \(output)")
        let replies = try output.split(separator: "\n").filter { $0.hasPrefix("REPLY ") }
            .map { try JSONValue(parsing: String($0.dropFirst(6))) }
        let expected: [JSONValue] = [
            ["jsonrpc": "2.0", "result": ["greeting": "hello", "n": 1, "nested": ["ok": true]], "id": 1],
            ["jsonrpc": "2.0", "result": [1, 2.5, -3, true, false, nil, "x", []], "id": "two"],
            ["jsonrpc": "2.0", "result": ["text": "héllo wörld — 日本語 🎉", "escaped": "café ☃ 😀"], "id": 3],
            [["jsonrpc": "2.0", "result": [4], "id": 4], ["jsonrpc": "2.0", "result": ["five": 5], "id": 5]],
            ["jsonrpc": "2.0", "result": ["after"], "id": 6],
        ]
        #expect(replies.count == expected.count, "got \(replies)")
        for (reply, wanted) in zip(replies, expected) { #expect(sameElements(reply, wanted), "got \(reply)") }
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func exampleServerExitsCleanlyOnSignal(_ signal: Int32) async throws {
        let server = try await ExampleServerProcess.launch()
        let (reason, status) = try await server.stop(signal: signal)
        #expect(reason == .exit && status == 0)
    }

    /// Runs `body`, then stops `server`, expecting a clean exit.
    private func finallyStopping<T>(_ server: ExampleServerProcess, _ body: () async -> T) async -> T {
        let result = await body()
        do {
            let (reason, status) = try await server.stop()
            #expect(reason == .exit && status == 0, "the example exited with \(reason) \(status)")
        } catch {
            Issue.record(error)
        }
        return result
    }

    /// Runs blocking `work` off the cooperative pool.
    private static func detached<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async -> Result<T, any Error> {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: Result { try work() }) }
        }
    }
}
