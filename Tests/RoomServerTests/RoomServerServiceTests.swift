import JSONRPC
import JSONRPCWebSocket
import Logging
import RoomServer
import RoomServerLifecycle
import ServiceLifecycle
import ServiceLifecycleTestKit
import TestSupport
import Testing

/// `RoomServerService` (issue 34, item 8): a `RoomServer` run by swift-service-lifecycle ends on a graceful
/// shutdown, on a cancellation and on the server's own stop, and always leaves the server shut down.
@Suite struct RoomServerServiceTests {
    @Test func aGracefulShutdownDrainsThenClosesEverySessionAndReturns() async throws {
        // Given a running service whose server drains for a minute, and alice connected to it
        let server = try await RoomServer.start(.init(operations: .init(drainPeriod: .seconds(60))))
        let port = try #require(RawHTTPClient.port(of: server.url))
        let alice = try await RoomPeer.dialing(server.url)
        try await alice.join("alice", "a")
        try await testGracefulShutdown { trigger in
            let running = Task { await RoomServerService(server).run() }

            // When the graceful shutdown is triggered
            trigger.triggerGracefulShutdown()

            // Then the server drains: /readyz says so while alice is still served
            try await waitUntil("readiness to go", asyncCondition: {
                (try? await RawHTTPClient.get(port: port, "/readyz").status) == 503
            })
            #expect(server.notReadyReason == "shutting down")
            _ = try await alice.result("ping", ["interval": 5000])
            // And once the drain is cut short, alice's socket closes with 1001 and run() returns
            await server.shutdown()
            #expect(try await alice.end().code == 1001)
            try await returnsWithin(.seconds(10), "the service's run()") { await running.value }
        }
    }

    @Test func cancellingTheServiceShutsTheServerDown() async throws {
        // Given a running service and alice connected to its server
        let server = try await RoomServer.start(.init())
        let alice = try await RoomPeer.dialing(server.url)
        try await alice.join("alice", "a")
        let running = Task { await RoomServerService(server).run() }
        _ = try await alice.result("ping", ["interval": 5000])

        // When the task running the service is cancelled
        running.cancel()

        // Then run() returns with the server shut down: alice's socket closed with 1001, readiness gone
        try await returnsWithin(.seconds(10), "the service's run()") { await running.value }
        #expect(try await alice.end().code == 1001)
        #expect(server.notReadyReason == "shutting down")
    }

    @Test func aServerStoppedByItsOwnerEndsTheService() async throws {
        // Given a running service
        let server = try await RoomServer.start(.init())
        let running = Task { await RoomServerService(server).run() }

        // When the server's owner shuts it down directly
        await server.shutdown()

        // Then the service's run() returns
        try await returnsWithin(.seconds(10), "the service's run()") { await running.value }
    }

    @Test func aServiceGroupRunsTheServerAndStopsItOnItsGracefulShutdown() async throws {
        // Given a service group running the server's service
        let server = try await RoomServer.start(.init())
        let alice = try await RoomPeer.dialing(server.url)
        try await alice.join("alice", "a")
        let group = ServiceGroup(configuration: .init(
            services: [RoomServerService(server)], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        _ = try await alice.result("ping", ["interval": 5000])

        // When the group shuts down gracefully
        await group.triggerGracefulShutdown()

        // Then the group returns without an error, and alice's socket closed with 1001
        try await withDeadline(.seconds(10), "the group's run()") { try await running.value }
        #expect(try await alice.end().code == 1001)
    }
}
