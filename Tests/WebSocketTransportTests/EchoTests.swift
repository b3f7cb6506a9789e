import Foundation
import TestSupport
import Testing
import WebSocketTransport

@Suite struct EchoTests {
    static let sizes = [0, 1, 125, 126, 65_535, 65_536, 100_000, 1 << 20]

    /// Whole: every message in one frame. Fragmented: 1000-byte frames, reassembled by the receiver.
    @Test(arguments: sizes, [false, true])
    func textAndBinaryEchoAtEverySize(size: Int, fragmented: Bool) async throws {
        var server = WebSocketServerConfiguration()
        server.limits.maxFrameSize = fragmented ? 1000 : 2 << 20
        let echo = try await EchoServer.start(server)
        var client = WebSocketClientConfiguration()
        client.limits.maxFrameSize = fragmented ? 1000 : 2 << 20
        let connection = try await WebSocketConnection.connect(to: echo.url, configuration: client)
        let text = String(repeating: "é", count: size / 2) + String(repeating: "a", count: size % 2)
        let binary = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })

        try await connection.send(.text(text))
        try await connection.send(.binary(binary))

        #expect(try await nextMessage(connection) == .text(text))
        #expect(try await nextMessage(connection) == .binary(binary))
        await connection.close()
        #expect(try await closeInfo(connection).code == .normal)
        await echo.stop()
    }

    @Test func messagesArriveInSendOrderAcrossManyConcurrentSenders() async throws {
        let echo = try await EchoServer.start()
        let connection = try await WebSocketConnection.connect(to: echo.url)
        // One sender per prefix; order must hold within each sender's sequence.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for sender in 0..<4 {
                group.addTask { for i in 0..<250 { try await connection.send(text: "\(sender):\(i)") } }
            }
            try await group.waitForAll()
        }
        var last = [Int: Int]()
        for _ in 0..<1000 {
            guard case .text(let t)? = try await nextMessage(connection) else { Issue.record("missing echo"); return }
            let parts = t.split(separator: ":").compactMap { Int($0) }
            #expect(parts[1] == (last[parts[0]] ?? -1) + 1)
            last[parts[0]] = parts[1]
        }
        #expect(last.values.allSatisfy { $0 == 249 })
        await connection.close()
        await echo.stop()
    }

    @Test func scopedConnectionAlwaysCloses() async throws {
        let echo = try await EchoServer.start()
        struct Oops: Error {}
        await #expect(throws: Oops.self) {
            try await WebSocketConnection.withConnection(to: echo.url) { inbound, outbound in
                try await outbound.send(text: "hi")
                throw Oops()
            }
        }
        let reply = try await WebSocketConnection.withConnection(to: echo.url) { inbound, outbound in
            try await outbound.send(text: "ping")
            var it = inbound.makeAsyncIterator()
            return try await it.next()
        }
        #expect(reply == .text("ping"))
        await echo.stop()
    }
}
