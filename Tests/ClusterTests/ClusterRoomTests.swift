import Foundation
import JSONRPC
import PeerManager
import RoomClient
@testable import RoomCluster
import RoomProtocol
import RoomServer
import SDP
import SignalingSupport
import TestSupport
import Testing

/// One room across room-server nodes sharing a Redis: every member sees one room.
@Suite(.enabled(if: clusterTestsRun, "needs redis-server (make deps installs it; required when CI=true)"))
struct ClusterRoomTests {
    static func outcome<T: Sendable>(_ body: () async throws -> T) async -> Result<T, any Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    @Test func membersOnTwoNodesSeeOneRoom() async throws {
        // Given alice on node 0 and bob on node 1
        let cluster = try await Cluster.start(nodes: 2)
        let alice = Member("alice", at: cluster.nodes[0])
        #expect(try await alice.join() == [])
        let bob = Member("bob", at: cluster.nodes[1])

        // Then bob's join lists alice, and alice hears bob join
        #expect(try await bob.join() == ["alice"])
        #expect(try await alice.next() == .participantJoined(Peer(identifier: "bob")))

        // When bob publishes, then alice hears it, and a later member on node 0 is told bob's stream
        try await bob.publish()
        #expect(try await alice.next() == .participantPublished(Peer(identifier: "bob", streams: ["webcam"])))
        let carol = Member("carol", at: cluster.nodes[0])
        #expect(try await carol.join() == ["alice", "bob"])
        #expect(carol.client.peers.first { $0.identifier == "bob" }?.streams == ["webcam"])

        // When alice chats, then bob (other node) and carol (same node) get it, from alice
        try await alice.client.sendMessage("hello")
        let bobHeard = [try await bob.next(), try await bob.next()]
        #expect(bobHeard == [.participantJoined(Peer(identifier: "carol")), .message("hello", from: "alice")], "\(bobHeard)")

        // When bob leaves, then alice and carol hear it
        try await bob.client.leave()
        for member in [alice, carol] {
            #expect(try await member.nextSkippingChatAndJoins() == .participantLeft(Peer(identifier: "bob", streams: ["webcam"])))
        }
        await cluster.stop()
    }

    @Test func aFastSendersMessagesReachMembersOnOtherNodesOnceEachInOrder() async throws {
        let cluster = try await Cluster.start(nodes: 3)
        let sender = Member("sender", at: cluster.nodes[0])
        _ = try await sender.join()
        let far = Member("far", at: cluster.nodes[1]), farther = Member("farther", at: cluster.nodes[2])
        _ = try await far.join()
        _ = try await farther.join()
        _ = try await far.next()  // farther joined
        for index in 0..<300 { try await sender.client.sendMessage("m\(index)") }
        for member in [far, farther] {
            for index in 0..<300 {
                let event = try await member.next()
                #expect(event == .message("m\(index)", from: "sender"), "\(member.name) got \(event)")
            }
        }
        await cluster.stop()
    }

    @Test func oneNameJoiningOnTwoNodesAtOnceGetsOneSuccessAndOne104() async throws {
        let cluster = try await Cluster.start(nodes: 2)
        for round in 0..<10 {
            let first = Member("bob", room: "r\(round)", at: cluster.nodes[0])
            let second = Member("bob", room: "r\(round)", at: cluster.nodes[1])
            try await first.client.connect()
            try await second.client.connect()
            async let a = Self.outcome { try await first.client.join() }
            async let b = Self.outcome { try await second.client.join() }
            let outcomes = await [a, b]
            #expect(outcomes.filter { (try? $0.get()) != nil }.count == 1, "round \(round)")
            for case .failure(let error) in outcomes {
                #expect((error as? RoomError)?.code == .existingUserInRoom, "round \(round): \(error)")
            }
            await first.client.disconnect()
            await second.client.disconnect()
        }
        await cluster.stop()
    }

    @Test func aDeadNodesMembersLeaveForEveryoneElse() async throws {
        // Given alice on node 0 and bob on node 1
        let cluster = try await Cluster.start(nodes: 2)
        let alice = Member("alice", at: cluster.nodes[0])
        _ = try await alice.join()
        let bob = Member("bob", at: cluster.nodes[1])
        _ = try await bob.join()
        #expect(try await alice.next() == .participantJoined(Peer(identifier: "bob")))

        // When node 1 stops taking part without a goodbye (its heartbeat stops; its socket stays up)
        try #require(cluster.nodes[1].cluster as? ClusterNode).halt()

        // Then alice hears bob leave once the node's heartbeat expired
        #expect(try await alice.next() == .participantLeft(Peer(identifier: "bob")))
        await cluster.stop()
    }

    @Test func withRedisDownAJoinGetsClusterUnavailableAndLocalChatGoesOn() async throws {
        let cluster = try await Cluster.start(nodes: 2)
        let alice = Member("alice", at: cluster.nodes[0]), ann = Member("ann", at: cluster.nodes[0])
        _ = try await alice.join()
        _ = try await ann.join()
        #expect(try await alice.next() == .participantJoined(Peer(identifier: "ann")))

        // When Redis goes away
        await cluster.redis.stop()

        // Then a join gets a clear error, never a hang
        let late = Member("late", at: cluster.nodes[1])
        try await late.client.connect()
        let refused = await #expect(throws: RPCError.self) { _ = try await late.client.join() }
        guard case .remote(let object)? = refused else { Issue.record("\(String(describing: refused))"); return }
        #expect(object.code == -32000 && object.message == "cluster unavailable")

        // And members of one node still chat
        try await alice.client.sendMessage("still here")
        #expect(try await ann.next() == .message("still here", from: "alice"))
        await cluster.stop()
    }

    @Test func aSubscriberReceivesAPublisherOnAnotherNodeUntilItUnpublishes() async throws {
        // Given bob publishing on node 1 and alice on node 0
        let cluster = try await Cluster.start(nodes: 2)
        let bob = Member("bob", at: cluster.nodes[1])
        _ = try await bob.join()
        try await bob.publish()
        let alice = Member("alice", at: cluster.nodes[0])
        #expect(try await alice.join() == ["bob"])

        // When alice receives bob's video: her node's backend answers
        let offer = try await PeerManager().generateOffer(for: "bob", media: .audioVideo(direction: .recvonly))
        let answer = try await alice.client.receiveVideo(from: Peer(identifier: "bob", streams: ["webcam"]), sdpOffer: offer)
        #expect(answer.hasPrefix("v=0"))

        // When bob unpublishes, then alice hears it, and receiving again is refused with 105
        try await bob.client.unpublishVideo()
        #expect(try await alice.next() == .participantUnpublished(Peer(identifier: "bob")))
        let refused = await #expect(throws: RoomError.self) {
            _ = try await alice.client.receiveVideo(from: Peer(identifier: "bob", streams: ["webcam"]), sdpOffer: offer)
        }
        #expect(refused?.code == .userNotStreaming)
        await cluster.stop()
    }

    @Test func aPrivateMessageReachesItsTargetOnAnotherNodeOnly() async throws {
        let cluster = try await Cluster.start(nodes: 2)
        let alice = Member("alice", at: cluster.nodes[0]), ann = Member("ann", at: cluster.nodes[1])
        let bob = Member("bob", at: cluster.nodes[1])
        _ = try await alice.join()
        _ = try await ann.join()
        _ = try await bob.join()
        _ = try await ann.next()  // bob joined
        // (once alice's node has heard of bob: until then bob is unknown there, 102)
        #expect(try await alice.next() == .participantJoined(Peer(identifier: "ann")))
        #expect(try await alice.next() == .participantJoined(Peer(identifier: "bob")))
        try await alice.client.sendPrivateMessage("for bob only", to: "bob")
        try await alice.client.sendMessage("marker")
        #expect(try await bob.next() == .privateMessage("for bob only", from: "alice"))
        #expect(try await ann.next() == .message("marker", from: "alice"))
        let unknown = await #expect(throws: RoomError.self) { try await alice.client.sendPrivateMessage("?", to: "nobody") }
        #expect(unknown?.code == .userNotFound)
        await cluster.stop()
    }

    @Test func aClientOfAStoppedNodeFailsOverToTheNextAndRejoins() async throws {
        // Given alice on node 0, and bob on node 1 with node 0 as his failover
        let cluster = try await Cluster.start(nodes: 2)
        let alice = Member("alice", at: cluster.nodes[0])
        _ = try await alice.join()
        let bob = Member("bob", at: cluster.nodes[1], failover: [cluster.nodes[0].url])
        #expect(try await bob.join() == ["alice"])
        #expect(try await alice.next() == .participantJoined(Peer(identifier: "bob")))

        // When node 1 shuts down
        await cluster.nodes[1].shutdown()

        // Then alice sees bob leave, and come back once his client rejoined through node 0
        #expect(try await alice.next() == .participantLeft(Peer(identifier: "bob")))
        #expect(try await alice.next() == .participantJoined(Peer(identifier: "bob")))
        try await waitUntil("bob's rejoined client to list alice") { bob.client.peers.map(\.identifier) == ["alice"] }
        try await alice.client.sendMessage("welcome back")
        var heard = try await bob.next()
        while case .participantJoined = heard { heard = try await bob.next() }
        #expect(heard == .message("welcome back", from: "alice"))
        await cluster.stop()
    }

    @Test func aClientOfAKilledNodeFailsOverAndRejoinsOnceTheClusterFreedItsName() async throws {
        let cluster = try await Cluster.start(nodes: 2)
        let alice = Member("alice", at: cluster.nodes[0])
        _ = try await alice.join()
        let bob = Member("bob", at: cluster.nodes[1], failover: [cluster.nodes[0].url])
        _ = try await bob.join()
        #expect(try await alice.next() == .participantJoined(Peer(identifier: "bob")))

        // When node 1 dies without a goodbye (its heartbeat stops, its sockets close)
        try #require(cluster.nodes[1].cluster as? ClusterNode).halt()
        await cluster.nodes[1].shutdown()

        // Then bob's name is freed by the sweep, alice sees him leave, and his client rejoins through node 0
        #expect(try await alice.next() == .participantLeft(Peer(identifier: "bob")))
        #expect(try await alice.next() == .participantJoined(Peer(identifier: "bob")))
        try await waitUntil("bob's rejoined client to list alice") { bob.client.peers.map(\.identifier) == ["alice"] }
        await cluster.stop()
    }

    /// Issue 30 item 5: a node keeps `room\nuser` entries of its members, and the sweep after its crash splits them
    /// at the first newline, so a member of room `lobby\nx` would hold its name for ever (104 on every rejoin).
    /// Such a room name is refused at the join, before anything reaches Redis.
    @Test func aRoomNameWithANewlineIsRefusedAtTheJoinAndNeverReachesRedis() async throws {
        let cluster = try await Cluster.start(nodes: 2)
        let bob = Member("bob", room: "lobby\nx", at: cluster.nodes[1], failover: [cluster.nodes[0].url])
        let refusal = await Self.outcome { try await bob.join() }
        guard case .failure(let error) = refusal else {
            Issue.record("bob joined room \"lobby\\nx\"")
            await cluster.stop()
            return
        }
        #expect((error as? RoomError)?.code == .generic, "\(error)")
        let node = try #require(cluster.nodes[0].cluster as? ClusterNode)
        #expect(try await node.members(of: "lobby\nx").isEmpty)
        #expect(try await node.members(of: "lobby").isEmpty)
        await cluster.stop()
    }

    @Test func closingARoomOnOneNodeClosesItOnEveryNode() async throws {
        let cluster = try await Cluster.start(nodes: 2)
        let alice = Member("alice", at: cluster.nodes[0]), bob = Member("bob", at: cluster.nodes[1])
        _ = try await alice.join()
        _ = try await bob.join()
        #expect(await cluster.nodes[0].closeRoom("demo"))
        #expect(try await bob.nextSkippingChatAndJoins() == .roomClosed(room: "demo"))
        #expect(try await alice.nextSkippingChatAndJoins() == .roomClosed(room: "demo"))
        try await waitUntil("the room to be gone on both nodes") {
            cluster.nodes.allSatisfy { $0.rooms["demo"] == nil }
        }
        await cluster.stop()
    }

    @Test func aLeaveDuringARedisOutageReachesTheOtherNodesMembersWhenRedisReturns() async throws {
        // Given alice on node 0 and bob on node 1
        let cluster = try await Cluster.start(nodes: 2)
        let alice = Member("alice", at: cluster.nodes[0]), bob = Member("bob", at: cluster.nodes[1])
        _ = try await alice.join()
        _ = try await bob.join()
        #expect(try await alice.next() == .participantJoined(Peer(identifier: "bob")))

        // When Redis goes away, bob leaves meanwhile (the event is lost), and Redis comes back empty
        await cluster.redis.stop()
        try await bob.client.leave()
        try await cluster.redis.restart()

        // Then alice, who missed bob's departure, is told once the nodes registered their participants again
        #expect(try await alice.next() == .participantLeft(Peer(identifier: "bob")))
        await cluster.stop()
    }

    @Test func aNodePresumedDeadComesBackWithItsMembers() async throws {
        // Given alice on node 0 and bob on node 1
        let cluster = try await Cluster.start(nodes: 2)
        let alice = Member("alice", at: cluster.nodes[0]), bob = Member("bob", at: cluster.nodes[1])
        _ = try await alice.join()
        _ = try await bob.join()
        #expect(try await alice.next() == .participantJoined(Peer(identifier: "bob")))

        // When node 1 freezes (its heartbeat stops) longer than its timeout: its key is gone and node 0 sweeps it
        let frozen = try #require(cluster.nodes[1].cluster as? ClusterNode)
        let beating = frozen.state.withLock { $0.loops.last }
        beating?.cancel()
        await beating?.value
        _ = try await RedisConnection(url: try RedisURL(parsing: cluster.redis.url)).command("DEL", "ks:node:node1")
        try await #require(cluster.nodes[0].cluster as? ClusterNode).sweep()

        // Then alice sees bob leave
        #expect(try await alice.next() == .participantLeft(Peer(identifier: "bob")))

        // And when node 1 thaws, its next heartbeat finds it was presumed dead, and alice sees bob come back
        Task { await frozen.heartbeat() }
        #expect(try await alice.next() == .participantJoined(Peer(identifier: "bob")))
        try await bob.client.sendMessage("still here")
        #expect(try await alice.next() == .message("still here", from: "bob"))
        await cluster.stop()
    }

    @Test func evictingAMemberOfAnotherNodeEvictsItThere() async throws {
        let cluster = try await Cluster.start(nodes: 2)
        let alice = Member("alice", at: cluster.nodes[0]), bob = Member("bob", at: cluster.nodes[1])
        _ = try await alice.join()
        _ = try await bob.join()
        #expect(try await alice.next() == .participantJoined(Peer(identifier: "bob")))
        #expect(await cluster.nodes[0].evict("bob", from: "demo"))
        #expect(try await bob.nextSkippingChatAndJoins() == .participantEvicted)
        #expect(try await alice.next() == .participantLeft(Peer(identifier: "bob")))
        #expect(await cluster.nodes[0].evict("nobody", from: "demo") == false)
        await cluster.stop()
    }
}

/// A room-server process on the cluster, stopped with SIGSTOP: cut off from Redis (and everyone) for a while.
@Suite(.enabled(if: clusterTestsRun, "needs redis-server (make deps installs it; required when CI=true)"))
struct ClusterPartitionTests {
    @Test func aNodeStoppedLongerThanItsTimeoutLosesItsMembersThenBringsThemBack() async throws {
        // Given node A in this process and node B a room-server process, both taking a node for dead after 1 s
        let redis = try await RedisServerProcess()
        let url = try RedisURL(parsing: redis.url)
        let nodeA = try await RoomServer.start(.init(cluster: ClusterConfiguration(
            redis: url, nodeID: "nodeA", heartbeatInterval: .milliseconds(200), nodeTimeout: .seconds(1) * deadlineScale)))
        let nodeB = try ChildProcess("room-server", ["--port", "0", "--cluster", redis.url, "--node-id", "nodeB",
                                                     "--node-timeout", "\(deadlineScale)"])
        let urlB = try #require(try await nodeB.nextLine())
        let alice = Member("alice", at: nodeA)
        _ = try await alice.join()
        let bob = Member("bob", room: "demo", url: urlB)
        _ = try await bob.join()
        #expect(try await alice.next() == .participantJoined(Peer(identifier: "bob")))

        // When B is stopped (SIGSTOP) past its timeout, then alice sees bob leave
        nodeB.send(SIGSTOP)
        #expect(try await alice.next() == .participantLeft(Peer(identifier: "bob")))

        // And when B runs again, its next heartbeat finds it was taken for dead: bob comes back, and chats
        nodeB.send(SIGCONT)
        #expect(try await alice.next() == .participantJoined(Peer(identifier: "bob")))
        try await bob.client.sendMessage("back")
        #expect(try await alice.next() == .message("back", from: "bob"))

        nodeB.send(SIGINT)
        _ = try await nodeB.exitStatus()
        await nodeA.shutdown()
        await redis.stop()
    }
}
