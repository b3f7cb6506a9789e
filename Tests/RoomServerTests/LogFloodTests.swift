import InMemoryLogging
import JSONRPC
import Logging
import RoomServer
import SignalingSupport
import Testing
import TestSupport

/// What a client can make the server log is bounded (docs/operations.md#logs): lines it can trigger at will are
/// rate-limited, with a line saying how many were held back, and text it chose (a method name, an id) is cut to 256
/// bytes with its length.
@Suite struct LogFloodTests {
    private static func capturingLogger(_ level: Logger.Level) -> (Logger, InMemoryLogHandler) {
        var handler = InMemoryLogHandler()
        handler.logLevel = level
        return (Logger(label: "test", factory: { _ in handler }), handler)
    }

    @Test func connectsNamingUnknownSessionsAreLoggedAtMostTenTimesPerTenSeconds() async throws {
        let clock = ManualClock()
        let (logger, handler) = Self.capturingLogger(.info)
        let server = RoomServer(configuration: .init(logger: logger, clock: clock))
        let peer = RoomPeer.connected(to: server)
        func unknownSessionLines() -> Int {
            handler.entries.filter { $0.message.description == "connect to an unknown session" }.count
        }

        // When one client names 1,000 unknown sessions
        for n in 0..<1000 {
            #expect(try await peer.error("connect", ["sessionId": .string("unknown-\(n)")])["code"] == 40007)
        }
        // Then ten are logged
        #expect(unknownSessionLines() == 10)

        // And once the interval has passed, the next one is logged after a line counting the 990 held back
        clock.advance(by: .seconds(10))
        #expect(try await peer.error("connect", ["sessionId": "unknown-again"])["code"] == 40007)
        #expect(unknownSessionLines() == 11)
        let summary = try #require(handler.entries.first { $0.message.description == "suppressed similar lines" })
        #expect(summary.metadata["suppressed"] == "990")
        #expect(summary.metadata["message"] == "connect to an unknown session")
    }

    @Test func textAClientChoseIsCutTo256BytesInEveryLine() async throws {
        let (logger, handler) = Self.capturingLogger(.trace)
        let server = RoomServer(configuration: .init(logger: logger))
        let peer = RoomPeer.connected(to: server)
        let huge = String(repeating: "m", count: 900_000)

        // When a client sends a notification with a 900 KB method, a response with a 900 KB id, and a connect naming
        // a 900 KB session
        try await peer.sendText(#"{"jsonrpc":"2.0","method":"\#(huge)"}"#)
        try await peer.sendText(#"{"jsonrpc":"2.0","id":"\#(huge)","result":1}"#)
        #expect(try await peer.error("connect", ["sessionId": .string(huge)])["code"] == 40007)

        // Then every line the server logged is short (the notification's is logged by its own task)
        try await waitUntil("the notification's line") {
            handler.entries.contains { $0.message.description == "notification without handler" }
        }
        let entries = handler.entries
        for entry in entries {
            let text = entry.message.description + entry.metadata.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            #expect(text.utf8.count < 1000, "\(entry.message): \(text.utf8.count) bytes")
        }
        // And each says how long the text it cut was
        #expect(entries.contains { $0.metadata.values.contains { "\($0)".hasSuffix("… (900000 bytes)") } })
    }
}
