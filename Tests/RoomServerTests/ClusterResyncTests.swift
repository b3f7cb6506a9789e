import JSONRPC
import Logging
@testable import RoomCluster
@testable import RoomServer
import SignalingSupport
import Testing
import TestSupport

/// After Redis came back, a node re-reads the members of every room it holds participants of: a read that fails is
/// tried again until it succeeds, rather than leaving the room's view of the other nodes stale for its life.
@Suite(.enabled(if: RedisServerProcess.executable != nil || isCI, "needs redis-server (make deps installs it)"))
struct ClusterResyncTests {
    @Test func aResyncWhoseReadFailsTriesAgainUntilItSucceeds() async throws {
        // Given alice on node 0, and bob held in the room by another node without node 0 having heard of him
        let redis = try await RedisServerProcess()
        let url = try RedisURL(parsing: redis.url)
        let retried = Counter()
        var logger = Logger(label: "test") { _ in
            HookLogHandler { message, _ in if message.hasPrefix("cluster: could not re-read") { retried.increment() } }
        }
        logger.logLevel = .warning
        let node0 = try await RoomServer.start(.init(
            cluster: ClusterConfiguration(redis: url, nodeID: "node0", timeout: .seconds(2) * deadlineScale),
            logger: logger))
        let cluster = try #require(node0.cluster as? ClusterNode)
        let alice = try await RoomPeer.dialing(node0.url)
        try await alice.join("alice")
        let other = ClusterNode(configuration: ClusterConfiguration(redis: url, nodeID: "node1"))
        try await other.start()
        #expect(try await other.claim(user: "bob", room: "room1"))

        // When node 0 resynchronizes while reading the room's members fails (the key holds a string: WRONGTYPE)
        let direct = RedisConnection(url: url)
        let key = "ks:room:room1:members"
        let members = try await direct.command("HGETALL", key)
        _ = try await direct.transaction([["DEL", key], ["SET", key, "not a hash"]])
        let resync = Task { await node0.resynchronize(with: cluster) }
        try await waitUntil("a failed read to be retried") { retried.count >= 1 }

        // Then once the read works again, alice is told of bob
        let fields = (members.array ?? []).compactMap(\.string)
        _ = try await direct.transaction([["DEL", key], ["HSET", key] + fields])
        await resync.value
        #expect(try await alice.notification("participantJoined")["id"] == "bob")
        await node0.shutdown()
        await other.stop()
        await redis.stop()
    }
}
