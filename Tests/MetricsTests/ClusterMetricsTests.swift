import JSONRPC
import RoomClient
import RoomCluster
import RoomServer
import RoomTestSupport
import Testing
import TestSupport

/// docs/operations.md#metrics, with a cluster: two nodes on a Redis of the test's own, each with its own registry,
/// so that each node's scrape shows what that node sent and received.
@Suite(.enabled(if: RedisServerProcess.executable != nil || isCI, "redis-server is not installed"))
struct ClusterMetricsTests {
    static func events(_ direction: String, _ type: String) -> String {
        #"signaling_cluster_events_total{direction="\#(direction)",type="\#(type)"}"#
    }

    @Test func eachNodeCountsTheEventsItSentAndReceivedAndItsRedisRoundTrips() async throws {
        let redis = try await RedisServerProcess()
        let url = try RedisURL(parsing: redis.url)
        let fixtures = [MetricsFixture(), MetricsFixture()]
        var nodes: [RoomServer] = []
        for (index, fixture) in fixtures.enumerated() {
            let cluster = ClusterConfiguration(redis: url, nodeID: "node\(index)", timeout: .seconds(2) * deadlineScale)
            nodes.append(try await RoomServer.start(.init(cluster: cluster, metrics: fixture.metrics)))
        }
        let alice = RoomTestClient.metered("alice", room: "spread", url: nodes[0].url)
        let bob = RoomTestClient.metered("bob", room: "spread", url: nodes[1].url)

        try await withDeadline(.seconds(30), "the cluster session") {
            // alice joins on node 0, bob on node 1, and alice's chat reaches bob through node 1
            try await alice.client.join()
            try await bob.client.join()
            try await alice.waitForEvent("bob joined") { if case .participantJoined = $0 { true } else { false } }
            try await alice.client.sendMessage("across")
            try await bob.waitForEvent("the chat") { $0 == .message("across", from: "alice") }
            try await fixtures[1].waitUntil(Self.events("received", "sendMessage"), is: 1)

            let first = fixtures[0].scrape, second = fixtures[1].scrape
            #expect(first[Self.events("sent", "participantJoined")] == 1, "\(first)")
            #expect(first[Self.events("sent", "sendMessage")] == 1)
            #expect(first[Self.events("received", "participantJoined")] == 1)
            #expect(first.total("signaling_cluster_events_total") == 3)
            #expect(second[Self.events("sent", "participantJoined")] == 1, "\(second)")
            #expect(second[Self.events("received", "participantJoined")] == 1)
            #expect(second[Self.events("received", "sendMessage")] == 1)
            #expect(second.total("signaling_cluster_events_total") == 3)
            for scrape in [first, second] {
                // Registration, the claim and the members read at least (heartbeats add more as time passes)
                #expect((scrape["signaling_cluster_redis_round_trip_seconds_count"] ?? 0) >= 3)
                #expect(scrape["signaling_cluster_redis_outages_total"] == 0)
                // Each node counts the participant and room it holds
                #expect(scrape["signaling_participants"] == 1)
                #expect(scrape["signaling_rooms"] == 1)
            }
        }
        for node in nodes { await node.shutdown() }
        await redis.stop()
    }
}
