import JSONRPC
import RoomCluster
@testable import RoomServer
import SignalingSupport
import Testing
import TestSupport

/// docs/architecture.md#handler-deadlines with a cluster: a join answered -32001 gives up the name it claimed in
/// Redis, so that the name is free on every node.
@Suite(.enabled(if: RedisServerProcess.executable != nil || isCI, "needs redis-server (make deps installs it)"))
struct DeadlineCommitClusterTests {
    @Test func aJoinAnsweredMinus32001GivesUpItsNameInTheCluster() async throws {
        // Given two nodes on one Redis, node 0's authorizer holding bob's join until the test lets it go
        let redis = try await RedisServerProcess()
        let url = try RedisURL(parsing: redis.url)
        let clock = ManualClock(), gate = Gate(), asked = Counter()
        let node0 = try await RoomServer.start(.init(
            limits: .init(handlerTimeout: DeadlineCommitTests.timeout),
            authorizeJoin: { _ in
                asked.increment()
                if asked.count == 1 { await gate.wait() }
                return true
            },
            cluster: ClusterConfiguration(redis: url, nodeID: "node0", timeout: .seconds(2) * deadlineScale), clock: clock))
        let node1 = try await RoomServer.start(.init(
            cluster: ClusterConfiguration(redis: url, nodeID: "node1", timeout: .seconds(2) * deadlineScale)))
        let bob = try await RoomPeer.dialing(node0.url)

        // When bob's join on node 0 is at the authorizer when its deadline passes, and goes on to claim his name in
        // Redis after -32001 went out
        let join = try await bob.send("joinRoom", ["user": "bob", "room": "room1"])
        try await waitUntil("bob's join to reach the authorizer") { asked.count == 1 }
        clock.advance(by: DeadlineCommitTests.timeout)
        #expect(try await bob.response(join)["error"]?["code"] == DeadlineCommitTests.timedOut)
        gate.open()

        // Then the join ends with bob's name free in Redis
        let cluster = try #require(node0.cluster as? ClusterNode)
        try await waitUntil("bob's join to end, his name given up", asyncCondition: {
            guard node0.registry.joining == 0, let members = try? await cluster.members(of: "room1") else { return false }
            return members.isEmpty
        })
        #expect(node0.rooms.isEmpty)

        // And another client may join as bob on node 1
        let other = try await RoomPeer.dialing(node1.url)
        try await other.join("bob")
        #expect(node1.rooms == ["room1": ["bob"]])
        await node0.shutdown()
        await node1.shutdown()
        await redis.stop()
    }

    @Test func aJoinThatFailsAfterItsClaimIsSeenToLeaveWhereAnotherJoinListedIt() async throws {
        // Given node 1 with carol in room1, and node 0 whose replies from Redis are held (its commands run at once);
        // no node is taken for dead meanwhile
        let redis = try await RedisServerProcess()
        let url = try RedisURL(parsing: redis.url)
        let proxy = try FaultProxy(targetPort: url.port)
        var proxied = url
        proxied.port = proxy.port
        let clock = ManualClock()
        let node0 = try await RoomServer.start(.init(
            limits: .init(handlerTimeout: DeadlineCommitTests.timeout),
            cluster: ClusterConfiguration(redis: proxied, nodeID: "node0", nodeTimeout: .seconds(60), timeout: .seconds(20)),
            clock: clock))
        let node1 = try await RoomServer.start(.init(
            cluster: ClusterConfiguration(redis: url, nodeID: "node1", nodeTimeout: .seconds(60),
                                          timeout: .seconds(2) * deadlineScale)))
        let carol = try await RoomPeer.dialing(node1.url)
        try await carol.join("carol")
        proxy.pause(.serverToClient)

        // When bob's join on node 0 has claimed his name in Redis, and is answered -32001 before it hears so
        let bob = try await RoomPeer.dialing(node0.url)
        let join = try await bob.send("joinRoom", ["user": "bob", "room": "room1"])
        let direct = RedisConnection(url: url)
        try await waitUntil("bob's claim to run in Redis", asyncCondition: {
            (try? await direct.command("HGET", "ks:room:room1:members", "bob"))?.string == "node0"
        })
        clock.advance(by: DeadlineCommitTests.timeout)
        #expect(try await bob.response(join)["error"]?["code"] == DeadlineCommitTests.timedOut)

        // And alice joins on node 1 meanwhile: her read of the members lists bob, and carol is told he joined
        let alice = try await RoomPeer.dialing(node1.url)
        let listed = try await alice.join("alice")
        #expect(listed.arrayValue?.compactMap { $0["id"]?.stringValue }.sorted() == ["bob", "carol"], "\(listed)")
        #expect(try await carol.notification("participantJoined")["id"] == "bob")
        #expect(try await carol.notification("participantJoined")["id"] == "alice")

        // Then once node 0 hears from Redis again and bob's join gives up his name, alice and carol are told he left
        proxy.resume(.serverToClient)
        for member in [carol, alice] {
            #expect(try await member.notification("participantLeft")["name"] == "bob")
        }
        try await waitUntil("bob's name to be free in Redis", asyncCondition: {
            (try? await direct.command("HEXISTS", "ks:room:room1:members", "bob")) == .integer(0)
        })
        await node0.shutdown()
        await node1.shutdown()
        await redis.stop()
    }
}
