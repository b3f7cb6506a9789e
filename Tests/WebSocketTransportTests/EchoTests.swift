import Foundation
import TestSupport
import Testing
import WebSocketTransport

@Suite struct EchoTests {
    @Test(arguments: [0, 1, 125, 126, 65_535, 65_536, 100_000, 1 << 20])
    func textAndBinaryEchoAtEverySize(size: Int) async throws {
        let echo = try await EchoServer.start()
        let client = try await WebSocketConnection.connect(to: echo.url)
        let text = String(repeating: "é", count: size / 2) + String(repeating: "a", count: size % 2)
        let binary = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try await client.send(.text(text))
        try await client.send(.binary(binary))
        let first = try await withDeadline { [client] in
            var it = client.messages.makeAsyncIterator()
            return try await it.next()
        }
        #expect(first == .text(text))
        let second = try await withDeadline { [client] in
            var it = client.messages.makeAsyncIterator()
            return try await it.next()
        }
        #expect(second == .binary(binary))
        await client.close()
        await echo.stop()
    }
}
