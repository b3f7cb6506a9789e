import JSONRPC
@testable import RoomCluster
import RoomServer
import SharedObjectServer
import SharedObjects
import SignalingSupport
import TestSupport
import Testing

/// Issue 33: shared objects stay consistent when Redis loses them (a restart with an empty dataset): each node
/// registers its objects again from its own copy, with their versions, properties and its clients, so that the
/// next change follows the last one the clients saw and the objects still go with their last client.
@Suite(.enabled(if: clusterTestsRun, "needs redis-server (make deps installs it; required when CI=true)"))
struct ClusterSharedObjectRestoreTests {
    typealias Watched = ClusterSharedObjectTests.Watched

    /// The object's hash as Redis holds it.
    static func hash(_ key: String, on redis: RedisConnection) async -> [String: String] {
        let flat = ((try? await redis.command("HGETALL", key))?.array ?? []).compactMap(\.string)
        var hash: [String: String] = [:]
        for index in stride(from: 0, to: flat.count - 1, by: 2) { hash[flat[index]] = flat[index + 1] }
        return hash
    }

    @Test func aRedisRestartedEmptyGetsTheObjectBackWithItsVersionPropertiesAndClients() async throws {
        // Given alice on node 0 and bob on node 1 holding one non-persistent object, changed three times
        let cluster = try await Cluster.start(nodes: 2)
        let (alice, bob) = try await cluster.aliceAndBob()
        let aliceBoard = Watched(alice, "board"), bobBoard = Watched(bob, "board")
        _ = try await aliceBoard.object.connect()
        _ = try await bobBoard.object.connect()
        #expect(try await aliceBoard.object.setProperty("color", "red") == 1)
        #expect(try await bobBoard.object.setProperty("size", 3) == 2)
        #expect(try await aliceBoard.object.setProperties(["text": "hi", "shape": ["a": [1, 2.5]]]) == 3)
        for board in [aliceBoard, bobBoard] {
            for version in 1...3 {
                guard case .updated(let update) = try await board.next() else { Issue.record("not an update"); return }
                #expect(update.version == version)
            }
        }
        // (and alice a persistent one: Redis is where it lives, and after the restart her node's copy is all there is)
        let kept = Watched(alice, "kept")
        _ = try await kept.object.connect(persistent: true)
        #expect(try await kept.object.setProperty("title", "plan") == 1)
        let node = try #require(cluster.nodes[0].cluster as? ClusterNode)
        let usage = try await node.objectUsage()
        let redis = RedisConnection(url: try RedisURL(parsing: cluster.redis.url))
        let before = await Self.hash("ks:so:board", on: redis), keptBefore = await Self.hash("ks:so:kept", on: redis)
        #expect(keptBefore["persistent"] == "1")
        #expect(before["v"] == "3" && before["c:node0"] == "1" && before["c:node1"] == "1")

        // When Redis restarts with an empty dataset
        await cluster.redis.stop()
        try await cluster.redis.restart()

        // Then within 10 s Redis holds the object again as it was: version, properties, size, clients per node
        try await waitUntil("the object to be registered again by both nodes", timeout: .seconds(10), asyncCondition: {
            let (boardNow, keptNow) = (await Self.hash("ks:so:board", on: redis), await Self.hash("ks:so:kept", on: redis))
            return boardNow == before && keptNow == keptBefore
        })
        #expect(try await node.objectUsage() == usage)
        let nodeZeroObjects = (try await redis.command("SMEMBERS", "ks:so-clients:node0").array ?? []).compactMap(\.string)
        #expect(nodeZeroObjects.sorted() == ["board", "kept"])
        #expect(try await redis.command("SMEMBERS", "ks:so-clients:node1") == .array([.bulk("board")]))

        // And registering again changes nothing (each node's count is set, not added)
        await cluster.nodes[0].sharedObjects?.registerObjectsWithCluster()
        #expect(await Self.hash("ks:so:board", on: redis) == before)
        #expect(try await node.objectUsage() == usage)

        // When both nodes listen again (a change published before a node's subscription is back reaches its clients
        // only through the gap path: read again, without its sender), and bob changes it, the change is version 4,
        // and both clients get it next
        try await waitUntil("both nodes to subscribe again", asyncCondition: {
            let clients = (try? await redis.command("CLIENT", "LIST", "TYPE", "pubsub"))?.string ?? ""
            return clients.split(separator: "\n").filter { $0.contains(" psub=1") }.count == 2
        })
        #expect(try await bobBoard.object.setProperty("color", "blue") == 4)
        let fourth = SharedObjectEvent.updated(SharedObjectUpdate(name: "board", version: 4, changed: ["color": "blue"],
                                                                  sender: .user("bob", room: "demo")))
        #expect(try await bobBoard.next() == fourth)
        #expect(try await aliceBoard.next() == fourth)
        #expect(aliceBoard.object.data == ["color": "blue", "size": 3, "text": "hi", "shape": ["a": [1, 2.5]]])

        // When both clients close it, it is forgotten, and no longer counted (the persistent one stays)
        try await aliceBoard.object.close()
        try await bobBoard.object.close()
        try await waitUntil("the object to be forgotten", asyncCondition: {
            (try? await redis.command("EXISTS", "ks:so:board")) == .integer(0)
        })
        #expect(try await node.objectUsage() == (objects: 1, bytes: Int(keptBefore["size"] ?? "") ?? -1))
        await redis.close()
        await cluster.stop()
    }

    @Test func aNodePresumedDeadGetsItsClientsCountedAgainWhenItComesBack() async throws {
        // Given alice on node 0 and bob on node 1 holding "shared", and bob alone holding "mine" (changed twice)
        let cluster = try await Cluster.start(nodes: 2)
        let (alice, bob) = try await cluster.aliceAndBob()
        let aliceShared = Watched(alice, "shared"), bobShared = Watched(bob, "shared"), bobMine = Watched(bob, "mine")
        _ = try await aliceShared.object.connect()
        _ = try await bobShared.object.connect()
        _ = try await bobMine.object.connect()
        #expect(try await bobMine.object.setProperty("a", 1) == 1)
        #expect(try await bobMine.object.setProperty("b", 2) == 2)
        let redis = RedisConnection(url: try RedisURL(parsing: cluster.redis.url))
        let node = try #require(cluster.nodes[0].cluster as? ClusterNode)
        let shared = await Self.hash("ks:so:shared", on: redis), mine = await Self.hash("ks:so:mine", on: redis)
        let usage = try await node.objectUsage()

        // When node 1 freezes longer than its timeout and node 0 sweeps it: its clients are taken away
        let frozen = try #require(cluster.nodes[1].cluster as? ClusterNode)
        let beating = frozen.state.withLock { $0.loops.last }
        beating?.cancel()
        await beating?.value
        _ = try await redis.command("DEL", "ks:node:node1")
        // (node 0's own periodic sweep may hold the sweep lock for node 1 at this moment: then that one does it)
        try await node.sweep()
        try await waitUntil("node 1's clients to be taken away", asyncCondition: {
            let counted = await Self.hash("ks:so:shared", on: redis)["c:node1"]
            let mine = try? await redis.command("EXISTS", "ks:so:mine")
            return counted == nil && mine == .integer(0)
        })

        // Then when node 1 thaws, it registers its objects again: its clients count, "mine" is back at version 2
        Task { await frozen.heartbeat() }
        try await waitUntil("node 1 to register its objects again", asyncCondition: {
            let now = (await Self.hash("ks:so:shared", on: redis), await Self.hash("ks:so:mine", on: redis))
            return now.0 == shared && now.1 == mine
        })
        #expect(try await node.objectUsage() == usage)
        #expect(try await bobMine.object.setProperty("c", 3) == 3)
        await redis.close()
        await cluster.stop()
    }

    @Test func aChangeToAnObjectRedisLostFollowsTheVersionTheClientsSaw() async throws {
        // Given alice on node 0 and bob on node 1 holding an object at version 2
        let cluster = try await Cluster.start(nodes: 2)
        let (alice, bob) = try await cluster.aliceAndBob()
        let aliceBoard = Watched(alice, "board"), bobBoard = Watched(bob, "board")
        _ = try await aliceBoard.object.connect()
        _ = try await bobBoard.object.connect()
        #expect(try await aliceBoard.object.setProperty("a", 1) == 1)
        #expect(try await bobBoard.object.setProperty("b", 2) == 2)
        for board in [aliceBoard, bobBoard] { for _ in 1...2 { _ = try await board.next() } }

        // When Redis loses it (as a restart with an empty dataset does, before the nodes hear of it), and bob sets
        let redis = RedisConnection(url: try RedisURL(parsing: cluster.redis.url))
        _ = try await redis.command("DEL", "ks:so:board")

        // Then the change is version 3, after those the clients saw, and both get it with the object's properties
        #expect(try await bobBoard.object.setProperty("c", 3) == 3)
        let third = SharedObjectEvent.updated(SharedObjectUpdate(name: "board", version: 3, changed: ["c": 3],
                                                                 sender: .user("bob", room: "demo")))
        #expect(try await bobBoard.next() == third)
        #expect(try await aliceBoard.next() == third)
        let hash = await Self.hash("ks:so:board", on: redis)
        #expect(hash["v"] == "3" && hash["p:a"] == "1" && hash["p:b"] == "2" && hash["c:node1"] == "1")
        await redis.close()
        await cluster.stop()
    }
}
