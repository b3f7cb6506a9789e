import Foundation
import SignalingSupport
import TestSupport
import Testing
@testable import RoomCluster

/// A node that fails to start stops everything it started (issue 33, item 4): no zombie heartbeat.
@Suite(.enabled(if: redisTestsRun, "needs redis-server (make deps installs it; required when CI=true)"))
struct ClusterNodeStartFailureTests {
    @Test func aStartWhoseSubscriptionIsNeverConfirmedThrows_andLeavesNoHeartbeat() async throws {
        // Given a Redis user that may run every command but subscribe (its PSUBSCRIBE is refused: NOPERM), so the
        // node's subscription is never confirmed while its heartbeats go through
        let fixture = try await RedisFaultFixture()
        let admin = RedisConnection(url: fixture.direct)
        _ = try await admin.command("ACL", "SETUSER", "nosub", "on", ">secret", "~*", "&*", "+@all", "-psubscribe",
                                    "-subscribe")
        let url = try RedisURL(parsing: "redis://nosub:secret@127.0.0.1:\(fixture.server.port)")
        let heartbeat = Duration.milliseconds(100)
        let nodeTimeout = Duration.seconds(1)
        let node = RedisFaultFixture.node("a", url, heartbeat: heartbeat, nodeTimeout: nodeTimeout,
                                          timeout: .milliseconds(500))

        // When it starts, start fails
        await #expect(throws: RedisError.self) { try await node.start() }

        // Then its events end, its heartbeat key goes (at the latest when its TTL runs out) and stays gone for two
        // heartbeat intervals, and it is no longer among the nodes
        try await returnsWithin(.seconds(5), "the node's events to end") { for await _ in node.events {} }
        try await waitUntil("ks:node:a to be gone", timeout: nodeTimeout * deadlineScale + .seconds(1),
                            asyncCondition: { (try? await admin.command("EXISTS", "ks:node:a")) == .integer(0) })
        await #expect(throws: DeadlineExceeded.self) {
            try await waitUntil("ks:node:a to come back", timeout: heartbeat * 2, asyncCondition: {
                (try? await admin.command("EXISTS", "ks:node:a")) != .integer(0)
            })
        }
        #expect(try await admin.command("SISMEMBER", "ks:nodes", "a") == .integer(0))
        await fixture.server.stop()
    }
}
