import InMemoryLogging
import JSONRPC
import JSONRPCWebSocket
import Logging
import RoomClient
import RoomServer
import TestSupport
import Testing

/// One join followed in the logs: the caller's `traceparent` on the upgrade reaches the server's log lines for the
/// connection and for the handler (docs/operations.md#tracing).
@Suite struct TraceLoggingTests {
    private static func capturingLogger() -> (Logger, InMemoryLogHandler) {
        var handler = InMemoryLogHandler()
        handler.metadataProvider = .traceParent
        handler.logLevel = .debug
        return (Logger(label: "test", factory: { _ in handler }), handler)
    }

    @Test func aJoinCarriesTheCallersTraceFromTheUpgradeToTheHandler() async throws {
        let (logger, handler) = Self.capturingLogger()
        let server = try await RoomServer.start(.init(logger: logger))
        let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
        var configuration = RoomClient.Configuration()
        configuration.webSocket.headers = [("traceparent", "00-\(traceID)-00f067aa0ba902b7-01")]
        let alice = RoomClient(room: Room(username: "alice", roomName: "traced", url: server.url),
                               configuration: configuration)
        try await alice.join()

        // The connection's line and the handler's line both carry the caller's trace id.
        let serving = try #require(handler.entries.first { $0.message == "serving" })
        #expect(serving.metadata["trace_id"]?.description == traceID)
        let joined = try #require(handler.entries.first { $0.message == "participant joined" })
        #expect(joined.metadata["trace_id"]?.description == traceID)
        let joinSpan = try #require(joined.metadata["span_id"]?.description)
        #expect(joinSpan.utf8.count == 16)
        #expect(joinSpan != "00f067aa0ba902b7", "the server's connection is a span of its own in the caller's trace")

        // Without a header the server starts a trace of its own for the connection.
        let bob = RoomClient(room: Room(username: "bob", roomName: "traced", url: server.url))
        try await bob.join()
        let bobJoined = try #require(handler.entries.last { $0.message == "participant joined" })
        let bobTrace = try #require(bobJoined.metadata["trace_id"]?.description)
        #expect(bobTrace.utf8.count == 32)
        #expect(bobTrace != traceID)

        await alice.disconnect()
        await bob.disconnect()
        await server.shutdown()
    }
}
