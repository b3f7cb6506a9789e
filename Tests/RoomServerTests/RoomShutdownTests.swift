import JSONRPC
import RoomServer
import SignalingSupport
import Testing
import TestSupport

/// `RoomServer.shutdown()` always ends (docs/architecture.md#shutdown), even while a media backend ignores the
/// cancellation of the handler that called it.
@Suite struct RoomShutdownTests {
    /// A server whose backend holds `publishVideo` (ignoring cancellation), with alice's publish stuck in it.
    private func serverWithAStuckPublish(limits: RoomServerLimits, operations: OperationsConfiguration = .init())
        async throws -> (RoomServer, TestMediaBackend)
    {
        let backend = TestMediaBackend()
        backend.hold()
        let server = try await RoomServer.start(.init(media: backend, limits: limits, operations: operations))
        let alice = try await RoomPeer.dialing(server.url)
        try await alice.join("alice", "a")
        _ = try await alice.send("publishVideo", ["sdpOffer": "offer", "doLoopback": false])
        try await waitUntil("the backend to hold the publish") { backend.waitingCalls == 1 }
        return (server, backend)
    }

    @Test func shutdownEndsAtTheHandlerDeadlineWhileTheBackendIgnoresCancellation() async throws {
        // Given a server whose handlers may run 1 s, and a publish stuck in a backend that ignores cancellation
        let (server, backend) = try await serverWithAStuckPublish(limits: .init(handlerTimeout: .seconds(1)))

        // When the server shuts down
        // Then shutdown returns (at the handler's deadline), though the backend never returned
        try await returnsWithin(.seconds(10), "the room server's shutdown") { await server.shutdown() }
        backend.open()
    }

    @Test func shutdownEndsWithinItsTimeoutWhenHandlersHaveNoDeadline() async throws {
        // Given a server without a handler deadline, a shutdown timeout of 300 ms, and a publish stuck in a
        // backend that ignores cancellation
        let (server, backend) = try await serverWithAStuckPublish(
            limits: .init(handlerTimeout: nil), operations: .init(shutdownTimeout: .milliseconds(300)))

        // When the server shuts down
        // Then shutdown returns within its timeout, abandoning the stuck handler
        try await returnsWithin(.seconds(10), "the room server's shutdown") { await server.shutdown() }
        backend.open()
    }

    @Test func cancellingRunShutsTheWholeServerDownNotOnlyItsListener() async throws {
        // Given a server served by run() in a task, and alice in a room
        let server = try await RoomServer.start(.init())
        let alice = try await RoomPeer.dialing(server.url)
        try await alice.join("alice", "a")
        let running = Task { await server.run() }

        // When that task is cancelled
        running.cancel()

        // Then run() returns, alice's socket closes with 1001, and the server says it is shutting down (before, only
        // the listener stopped: readiness, media and the cluster were left as they were)
        try await returnsWithin(.seconds(10), "run()") { await running.value }
        #expect(try await alice.end().code == 1001)
        try await waitUntil("readiness to say so") { server.notReadyReason == "shutting down" }
    }
}
