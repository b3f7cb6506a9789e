import Foundation
import TestSupport
import Testing
import WebSocketTransport

@Suite struct LoadTests {
    /// Kernel threads of this process, from /proc.
    static func threadCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1
    }

    @Test func twoHundredConcurrentClientsShareOneServiceThread() async throws {
        let loop = try WebSocketEventLoop()
        let echo = try await EchoServer.start(loop: loop)
        let threadsBefore = Self.threadCount()

        let connections = try await withThrowingTaskGroup(of: WebSocketConnection.self) { group in
            for _ in 0..<200 { group.addTask { try await WebSocketConnection.connect(to: echo.url, loop: loop) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (i, connection) in connections.enumerated() {
                group.addTask {
                    try await connection.send(text: "client \(i)")
                    let reply = try await nextMessage(connection)
                    #expect(reply == .text("client \(i)"))
                }
            }
            try await group.waitForAll()
        }

        // 200 clients + 200 server-side connections, all established on the loop's one service thread.
        #expect(await loop.connectionCount() == 400)
        var threads = Set<Int32>()
        for connection in connections { threads.insert(await connection.serviceThreadID) }
        #expect(threads == [loop.serviceThreadID])
        // No thread per connection: the process gained far fewer threads than connections.
        #expect(Self.threadCount() - threadsBefore < 20)

        for connection in connections { await connection.close() }
        await echo.stop()
        await loop.shutdown()
    }
}
