import JSONRPC
import RoomClient
import RoomCluster
import RoomServer
import SharedObjectServer
import SharedObjects
import TestSupport
import Testing

/// Issue 30 item 3 across a cluster: the quotas hold for every node together, counted in Redis; persistent objects
/// need the permission; and the Redis keys of objects (`ks:so:*`) stay bounded and go away with their last client.
@Suite(.enabled(if: clusterTestsRun, "needs redis-server (make deps installs it; required when CI=true)"))
struct ClusterSharedObjectQuotaTests {
    /// The shared objects Redis holds (`ks:so:<name>` keys), sorted.
    static func objectKeys(in cluster: Cluster) async throws -> [String] {
        let redis = RedisConnection(url: try RedisURL(parsing: cluster.redis.url))
        defer { Task { await redis.close() } }
        return (try await redis.command("KEYS", "ks:so:*").array ?? []).compactMap(\.string).sorted()
    }

    /// The error code of a call that must fail.
    static func code(_ body: () async throws -> Void) async -> Int? {
        do {
            try await body()
            return nil
        } catch {
            return (error as? RPCError)?.remoteError?.code
        }
    }

    @Test func oneQuotaForEveryNodeAndNoPersistentObjectFromClients() async throws {
        // Given two nodes whose clients may not create persistent objects, 4 objects and 2,000 bytes at most
        let cluster = try await Cluster.start(nodes: 2, sharedObjects: .init(
            quotas: .init(maxObjects: 4, maxBytes: 2000), clientsCreatePersistentObjects: false))
        let (alice, bob) = try await cluster.aliceAndBob()
        let aliceShared = alice.shared, bobShared = bob.shared

        // When alice on node 0 and bob on node 1 make two objects each, then bob a fifth and a persistent one
        let one = try await aliceShared.connect("o1"), two = try await aliceShared.connect("o2")
        let three = try await bobShared.connect("o3"), four = try await bobShared.connect("o4")
        let fifth = await Self.code { _ = try await bobShared.connect("o5") }
        let persistent = await Self.code { _ = try await aliceShared.connect("p", persistent: true) }

        // Then the fifth gets 1103 and the persistent one 1102, and Redis holds the four, counted
        #expect(fifth == SharedObjectErrorCode.tooManyObjects.rawValue)
        #expect(persistent == SharedObjectErrorCode.unauthorized.rawValue)
        #expect(try await Self.objectKeys(in: cluster) == ["ks:so:o1", "ks:so:o2", "ks:so:o3", "ks:so:o4"])
        let node = try #require(cluster.nodes[0].cluster as? ClusterNode)
        #expect(try await node.objectUsage() == (objects: 4, bytes: 8))

        // When alice fills hers with 1,200 bytes, and bob then does the same with his
        try await one.setProperty("v", .string(String(repeating: "a", count: 1200)))
        let tooMuch = await Self.code { try await three.setProperty("v", .string(String(repeating: "b", count: 1200))) }

        // Then bob's is refused with 1104, and nothing changed
        #expect(tooMuch == SharedObjectErrorCode.objectTooLarge.rawValue)
        #expect(three.version == 0)
        #expect(try await node.objectUsage() == (objects: 4, bytes: 6 + 1209))

        // When both close their objects (the last client of each) and leave
        for object in [one, two, three, four] { try await object.close() }
        await alice.client.disconnect()
        await bob.client.disconnect()

        // Then every object and its count are gone from Redis
        try await waitUntil("the objects to leave Redis", asyncCondition: {
            (try? await Self.objectKeys(in: cluster).isEmpty) == true
        })
        #expect(try await node.objectUsage() == (objects: 0, bytes: 0))
        await cluster.stop()
    }

    @Test func persistentObjectsFromClientsStayWithinTheQuota() async throws {
        // Given two nodes whose clients may create persistent objects, 3 at most
        let cluster = try await Cluster.start(nodes: 2, sharedObjects: .init(quotas: .init(maxObjects: 3)))
        let (alice, bob) = try await cluster.aliceAndBob()

        // When alice and bob each create five persistent objects, closing each at once
        var refusals = 0
        for (member, prefix) in [(alice, "a"), (bob, "b")] {
            let shared = member.shared
            for index in 0..<5 {
                if let code = await Self.code({ try await shared.connect("\(prefix)\(index)", persistent: true).close() }) {
                    #expect(code == SharedObjectErrorCode.tooManyObjects.rawValue)
                    refusals += 1
                }
            }
        }

        // Then three were made, and outlive their clients; the rest were refused
        #expect(refusals == 7)
        await alice.client.disconnect()
        await bob.client.disconnect()
        #expect(try await Self.objectKeys(in: cluster) == ["ks:so:a0", "ks:so:a1", "ks:so:a2"])
        await cluster.stop()
    }
}

/// Issue 33 item 6: each object counts its clients per node, so that the sweep of a dead node takes its clients away
/// and a non-persistent object whose other clients then close is forgotten (and no longer counted).
@Suite(.enabled(if: clusterTestsRun, "needs redis-server (make deps installs it; required when CI=true)"))
struct ClusterSharedObjectSweepTests {
    @Test func aDeadNodesClientsAreSweptSoItsObjectsGoWithTheirLastLiveClient() async throws {
        // Given alice on node 0 and bob on node 1 with the non-persistent board open, and a persistent note of bob's
        let cluster = try await Cluster.start(nodes: 2)
        let (alice, bob) = try await cluster.aliceAndBob()
        #expect(try await alice.next() == .participantJoined(Peer(identifier: "bob")))
        let node = try #require(cluster.nodes[0].cluster as? ClusterNode)
        let before = try await node.objectUsage()
        let aliceBoard = try await alice.shared.connect("board")
        let bobShared = bob.shared
        _ = try await bobShared.connect("board")
        _ = try await bobShared.connect("note", persistent: true)
        try await aliceBoard.setProperty("color", "red")
        #expect(try await ClusterSharedObjectQuotaTests.objectKeys(in: cluster) == ["ks:so:board", "ks:so:note"])

        // When node 1 dies without a goodbye (bob's client stays open on it), and its participants are swept
        try #require(cluster.nodes[1].cluster as? ClusterNode).halt()
        // (the board's update goes to alice's shared objects, not to her room events)
        #expect(try await alice.next() == .participantLeft(Peer(identifier: "bob")))

        // And alice, the board's last live client, closes it
        try await aliceBoard.close()

        // Then the board is gone from Redis and no longer counted; the persistent note stays
        try await waitUntil("the board to leave Redis", asyncCondition: {
            (try? await ClusterSharedObjectQuotaTests.objectKeys(in: cluster)) == ["ks:so:note"]
        })
        let usage = try await node.objectUsage()
        #expect(usage.objects == before.objects + 1 && usage.bytes == before.bytes + 2)
        await cluster.stop()
    }
}
