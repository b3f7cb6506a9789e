import RoomClient
@testable import RoomCluster
@testable import RoomServer
import SignalingSupport
import TestSupport
import Testing

/// Joins on different nodes that overlap: every member hears of every joiner exactly once, whichever node's read of
/// the room's members saw the other's claim first (docs/architecture.md#cluster, "a join's read of the members").
@Suite(.enabled(if: clusterTestsRun, "needs redis-server (make deps installs it; required when CI=true)"))
struct ClusterJoinRaceTests {
    /// What one member learned of the others in a round: the names its join listed, and each participantJoined.
    struct Heard {
        var listed: [String] = []
        var joined: [String] = []

        /// How often `name` reached this member, by its join result or a `participantJoined`.
        func count(_ name: String) -> Int { (listed + joined).filter { $0 == name }.count }
    }

    /// Reads `member`'s events until both end markers (chat from carol and from dave) arrived; the joins it heard.
    static func heard(by member: Member, listed: [String]) async throws -> Heard {
        var heard = Heard(listed: listed)
        var markers: Set<String> = []
        while markers.count < 2 {
            switch try await member.next() {
            case .participantJoined(let peer): heard.joined.append(peer.identifier)
            case .message("end", from: let sender): markers.insert(sender)
            default: continue
            }
        }
        return heard
    }

    @Test func concurrentJoinsOnTwoNodesAreHeardByEveryMemberOnceEach() async throws {
        let cluster = try await Cluster.start(nodes: 2)
        for round in 0..<50 {
            let room = "race\(round)"
            // Given carol on node 0 and dave on node 1 in the room
            let carol = Member("carol", room: room, at: cluster.nodes[0])
            let dave = Member("dave", room: room, at: cluster.nodes[1])
            _ = try await carol.join()
            #expect(try await dave.join() == ["carol"])
            #expect(try await carol.next() == .participantJoined(Peer(identifier: "dave")))

            // When alice joins on node 0 and bob on node 1 at the same instant
            let alice = Member("alice", room: room, at: cluster.nodes[0])
            let bob = Member("bob", room: room, at: cluster.nodes[1])
            try await alice.client.connect()
            try await bob.client.connect()
            async let aliceJoin = alice.client.join()
            async let bobJoin = bob.client.join()
            let (aliceListed, bobListed) = try await (aliceJoin.map(\.identifier), bobJoin.map(\.identifier))

            // Then, by the time carol's and dave's later chat arrives, everyone heard of every other member once
            try await carol.client.sendMessage("end")
            try await dave.client.sendMessage("end")
            let carolHeard = try await Self.heard(by: carol, listed: [])
            let daveHeard = try await Self.heard(by: dave, listed: [])
            let aliceHeard = try await Self.heard(by: alice, listed: aliceListed)
            let bobHeard = try await Self.heard(by: bob, listed: bobListed)
            for (name, heard, others) in [("carol", carolHeard, ["alice", "bob"]), ("dave", daveHeard, ["alice", "bob"]),
                                          ("alice", aliceHeard, ["bob", "carol", "dave"]),
                                          ("bob", bobHeard, ["alice", "carol", "dave"])] {
                for other in others {
                    #expect(heard.count(other) == 1, "round \(round): \(name) heard of \(other) \(heard.count(other)) times (\(heard))")
                }
            }
            for member in [alice, bob, carol, dave] { try await member.client.leave() }
        }
        await cluster.stop()
    }

    @Test func whatAnotherNodeSaysWhileAJoinReadsTheMembersWinsOverTheRead() async throws {
        // Given node 0, whose authorizer holds alice's join after her name is reserved there, and a second node
        // (a bare ClusterNode) holding bob and carol in the room, neither publishing
        let redis = try await RedisServerProcess()
        let url = try RedisURL(parsing: redis.url)
        let gate = Gate()
        let node0 = try await RoomServer.start(.init(
            authorizeJoin: { _ in await gate.wait(); return true },
            cluster: ClusterConfiguration(redis: url, nodeID: "node0", timeout: .seconds(2) * deadlineScale)))
        let node1 = ClusterNode(configuration: ClusterConfiguration(redis: url, nodeID: "node1"))
        try await node1.start()
        #expect(try await node1.claim(user: "bob", room: "demo"))
        #expect(try await node1.claim(user: "carol", room: "demo"))
        let alice = Member("alice", at: node0)
        try await alice.client.connect()
        async let listed = alice.client.join()
        try await waitUntil("alice's name to be reserved") { node0.registry.pending(in: "demo") != nil }

        // When node 1 says, before alice's read of the members, that bob left and carol publishes, while Redis still
        // lists bob and has carol not publishing (node 1's own writes come later)
        node1.post("participantLeft", room: "demo", user: "bob", payload: "")
        node1.post("participantPublished", room: "demo", user: "carol", payload: "")
        try await waitUntil("node 0 to hear it") { node0.registry.pending(in: "demo")?.count == 2 }
        gate.open()

        // Then alice's join lists carol with her stream, and not bob
        let peers = try await listed
        #expect(peers.map(\.identifier) == ["carol"])
        #expect(peers.first?.streams == ["webcam"])
        #expect(node0.registry.pending(in: "demo")?.isEmpty == true)
        await node0.shutdown()
        await node1.stop()
        await redis.stop()
    }
}

extension RoomRegistry {
    /// What other nodes said about participants of `room` while a local join reads its members, if the room is here.
    func pending(in room: String) -> [String: PendingRemote]? {
        state.withLock { $0.rooms[room]?.pendingRemote }
    }
}
