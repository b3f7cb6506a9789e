import Foundation
import TestSupport
import Testing
@testable import WebSocketTransport

@Suite struct DescriptorReserveTests {
    @Test func aLoopLeavesAReserveUnderTheDescriptorLimit() {
        #expect(WebSocketEventLoop.socketLimit(descriptorLimit: 1024) == 960)
        #expect(WebSocketEventLoop.socketLimit(descriptorLimit: 20_000) == 20_000 - 312)
        #expect(WebSocketEventLoop.socketLimit(descriptorLimit: 1 << 20) == 65536 - 1024)
        #expect(WebSocketEventLoop.socketLimit(descriptorLimit: 200) == 136)
    }

    /// A server at its descriptor limit keeps a reserve, stays up, and serves again once connections close: the
    /// example server under `prlimit --nofile=200`, 250 sockets opened to it.
    @Test func aServerAtItsDescriptorLimitKeepsAReserveAndRecovers() async throws {
        let limit = 200
        let server = try ChildProcess(executable: URL(fileURLWithPath: "/usr/bin/prlimit"),
                                      ["--nofile=\(limit):\(limit)", ChildProcess.executable("jsonrpc-echo-server").path,
                                       "--port", "0"])
        defer { server.send(SIGKILL) }
        guard let url = try await server.nextLine(), let port = RawHTTPClient.port(of: url) else {
            Issue.record("no URL line: \(server.stderrSoFar)")
            return
        }
        var sockets = try (0..<250).map { _ in try RawTCPClient(port: port) }
        let pid = server.processIdentifier
        let descriptors: @Sendable () -> Int = {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
        }
        // The server takes sockets until lws's table is full (200 less the 64 reserve).
        try await withDeadline(.seconds(20), "the server taking its share of the sockets") {
            while descriptors() < WebSocketEventLoop.socketLimit(descriptorLimit: rlim_t(limit)) - 8 {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        #expect(descriptors() <= limit - 48, "the reserve stays free")

        // Once the sockets close, a new client is served.
        sockets.removeAll()
        let client = try await withDeadline(.seconds(30), "a connection after the sockets closed") {
            try await WebSocketConnection.connect(to: url)
        }
        try await client.send(text: #"{"jsonrpc":"2.0","id":1,"method":"echo","params":["ok"]}"#)
        guard case .text(let answer)? = try await nextMessage(client, limit: .seconds(30)) else {
            Issue.record("no answer")
            return
        }
        #expect(answer.contains(#""result":["ok"]"#))
        await client.close()
        #expect(kill(server.processIdentifier, 0) == 0, "the server is still running")
    }
}
