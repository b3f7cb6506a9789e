import Foundation
import JSONRPC
import RoomCluster
import RoomServer
import TestSupport
import Testing

/// docs/operations.md#readiness and #rooms with a cluster: `/readyz` follows Redis, and `/rooms` shows the remote
/// members with their node.
@Suite(.enabled(if: clusterTestsRun, "needs redis-server (make deps installs it; required when CI=true)"))
struct ClusterOperationsTests {
    @Test func readinessFollowsRedisAndRoomsShowRemoteMembers() async throws {
        // Given two nodes with admin tokens, alice on node0 (publishing) and bob on node1
        let redis = try await RedisServerProcess()
        let url = try RedisURL(parsing: redis.url)
        var nodes: [RoomServer] = []
        for index in 0..<2 {
            let cluster = ClusterConfiguration(
                redis: url, nodeID: "node\(index)", heartbeatInterval: .milliseconds(100),
                nodeTimeout: .seconds(3) * deadlineScale, timeout: .seconds(2) * deadlineScale)
            nodes.append(try await RoomServer.start(.init(cluster: cluster, operations: .init(adminToken: "t-0123456789abcdef"))))
        }
        let alice = Member("alice", at: nodes[0]), bob = Member("bob", at: nodes[1])
        _ = try await alice.join()
        try await alice.publish()
        _ = try await bob.join()
        let port = try #require(RawHTTPClient.port(of: nodes[0].url))
        #expect(try await RawHTTPClient.get(port: port, "/readyz").text == "ready\n")

        // Then node0's /rooms lists alice as its own and bob as node1's, publishing as Redis says
        try await waitUntil("node0 to know bob", asyncCondition: {
            let json = try? JSONValue(parsing: (try? await RawHTTPClient.get(port: port, "/rooms", headers: ["Authorization": "Bearer t-0123456789abcdef"]))?.text ?? "")
            return json?["rooms"]?[0]?["participants"]?.arrayValue?.count == 2
        })
        let json = try JSONValue(parsing: try await RawHTTPClient.get(port: port, "/rooms", headers: ["Authorization": "Bearer t-0123456789abcdef"]).text)
        #expect(json["node"] == "node0")
        let participants = try #require(json["rooms"]?[0]?["participants"]?.arrayValue)
        #expect(participants.map { $0["name"] } == ["alice", "bob"])
        #expect(participants.map { $0["node"] } == ["node0", "node1"])
        #expect(participants.map { $0["remote"] } == [false, true])
        #expect(participants.map { $0["streams"] } == [["webcam"], []])
        #expect(participants[1]["outboxDepth"] == .null && participants[1]["connected"] == .null)

        // When Redis goes away, /readyz says so (one line), and /healthz stays 200
        await redis.stop()
        try await waitUntil("node0 to notice that Redis is gone", asyncCondition: {
            (try? await RawHTTPClient.get(port: port, "/readyz").status) == 503
        })
        let unready = try await RawHTTPClient.get(port: port, "/readyz")
        #expect(unready.text.hasPrefix("cluster: Redis unreachable ("))
        #expect(unready.text.filter { $0 == "\n" }.count == 1)
        #expect(nodes[0].notReadyReason?.hasPrefix("cluster: Redis unreachable") == true)
        #expect(try await RawHTTPClient.get(port: port, "/healthz").status == 200)

        // When it comes back, node0 is ready again
        try await redis.restart()
        try await waitUntil("node0 to be ready again", timeout: .seconds(20), asyncCondition: {
            (try? await RawHTTPClient.get(port: port, "/readyz").status) == 200
        })
        for node in nodes { await node.shutdown() }
        await redis.stop()
    }
}
