import Foundation
import JSONRPC
import RoomClient
import RoomCluster
@testable import RoomServer
import SignalingSupport
import TestSupport
import Testing

/// What a Redis fault costs the users of a cluster (docs/cluster.md, "What a Redis fault costs a user"): each node reaches Redis through a
/// fault proxy of its own.
@Suite(.enabled(if: clusterTestsRun, "needs redis-server (make deps installs it; required when CI=true)"), .serialized)
struct ClusterRedisFaultTests {
    /// Joins `names[i]` on node `nodes[i]` of `cluster` in room demo and waits until each knows all the others.
    static func members(_ names: [String], on nodes: [Int], of cluster: Cluster) async throws -> [String: Member] {
        var members: [String: Member] = [:]
        for (name, node) in zip(names, nodes) {
            let member = Member(name, at: cluster.nodes[node])
            _ = try await member.join()
            members[name] = member
        }
        try await waitUntilEveryoneKnowsEveryone(members)
        return members
    }

    static func waitUntilEveryoneKnowsEveryone(_ members: [String: Member], within: Duration = .seconds(10)) async throws {
        for (name, member) in members {
            let others = Set(members.keys).subtracting([name])
            try await waitUntil("\(name) to know \(others.sorted())", timeout: within) {
                Set(member.client.peers.map(\.identifier)) == others
            }
        }
    }

    /// The members hash of room demo, as Redis holds it: user → node.
    static func claims(_ redis: RedisServerProcess) async throws -> [String: String] {
        let reply = try await RedisConnection(url: try RedisURL(parsing: redis.url)).command("HGETALL", "ks:room:demo:members")
        let flat = (reply.array ?? []).compactMap(\.string)
        return Dictionary(uniqueKeysWithValues: stride(from: 0, to: flat.count - 1, by: 2).map { (flat[$0], flat[$0 + 1]) })
    }

    /// How a join ended and how long it took.
    static func timedJoin(_ join: () async throws -> [String]) async -> (Result<[String], any Error>, Duration) {
        let start = ContinuousClock.now
        do {
            let peers = try await join()
            return (.success(peers), .now - start)
        } catch {
            return (.failure(error), .now - start)
        }
    }

    @Test func aFifteenSecondBlackHoleCostsNoLocalChatNoHangingJoinAndLeavesNoGhost() async throws {
        // Given alice and ann on node 0, bob and ben on node 1, chatting in 60 KB messages
        let limits = RoomServerLimits(maxChatMessageBytes: 64 << 10, maxBroadcastBytesPerSecond: nil)
        let cluster = try await Cluster.start(nodes: 2, heartbeats: [.milliseconds(200), .milliseconds(200)],
                                              limits: limits, proxied: true)
        let members = try await Self.members(["alice", "ann", "bob", "ben"], on: [0, 0, 1, 1], of: cluster)
        let bulk = String(repeating: "x", count: 60_000)
        let sent = LockedValue<[Int: ContinuousClock.Instant]>([:])
        let latencies = LockedValue<[Duration]>([])
        let (alice, ann, bob) = (members["alice"]!, members["ann"]!, members["bob"]!)
        // (ann reads every event: each "p<n>" probe from alice is timed; the others' events are read and dropped,
        // so that no test client holds the chat in memory)
        let anyLeft = LockedValue(false)
        let drains = ["alice", "bob", "ben"].map { name in
            Task { while !Task.isCancelled { _ = try? await members[name]!.next() } }
        }
        let reader = Task {
            while !Task.isCancelled {
                guard let event = try? await ann.next() else { continue }
                switch event {
                case .message(let text, from: "alice") where text.hasPrefix("p"):
                    if let n = Int(text.dropFirst()), let at = (sent.withLock { $0 })[n] { latencies.withLock { $0.append(.now - at) } }
                case .participantLeft: anyLeft.withLock { $0 = true }
                default: break
                }
            }
        }
        for _ in 0..<20 {
            try await alice.client.sendMessage(bulk)
            try await bob.client.sendMessage(bulk)
        }

        // When Redis goes silent for 15 s for both nodes (packets dropped, sockets open) while alice and bob go on
        // sending 60 KB messages at 25/s each, and alice sends ann a probe every 50 ms
        for proxy in cluster.proxies {
            proxy.blackHole(.clientToServer)
            proxy.blackHole(.serverToClient)
        }
        let start = ContinuousClock.now
        let load = Task {
            var n = 0
            while ContinuousClock.now - start < .seconds(15) {
                sent.withLock { $0[n] = .now }
                try? await alice.client.sendMessage("p\(n)")
                if n % 2 == 0 {
                    try? await alice.client.sendMessage(bulk)
                    try? await bob.client.sendMessage(bulk)
                }
                n += 1
                try? await Task.sleep(until: start + .milliseconds(50) * n)
            }
        }

        // Then a join on either node at +6 s and at +11 s fails within 2 s with "cluster unavailable"
        for (second, late) in [(6, "late6"), (11, "late11")] {
            try? await Task.sleep(until: start + .seconds(second))
            for node in 0..<2 {
                let member = Member("\(late)n\(node)", at: cluster.nodes[node])
                let (outcome, took) = await Self.timedJoin { try await member.join() }
                #expect(took < .seconds(2) * deadlineScale, "the join at +\(second) s on node \(node) took \(took)")
                guard case .failure(let error) = outcome, case .remote(let object)? = error as? RPCError else {
                    Issue.record("the join at +\(second) s on node \(node): \(outcome)")
                    continue
                }
                #expect(object.code == -32000 && object.message == "cluster unavailable")
                await member.client.disconnect()
            }
        }
        await load.value

        // And chat between members of one node went on (p99 under 100 ms)
        let sorted = latencies.withLock { $0 }.sorted()
        let p99 = sorted.isEmpty ? Duration.seconds(1000) : sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        #expect(sorted.count > 250 / deadlineScale, "\(sorted.count) probes arrived")
        #expect(p99 < .milliseconds(100) * deadlineScale, "same-node chat p99 \(p99)")
        // (each node's memory during the hole: ClusterBlackHoleMemoryTests, with the nodes as processes; this process
        // holds the test's clients too, which grow by about 30 MiB over the hole)

        // And after the heal, within 10 s: everyone knows everyone, nobody was seen to leave, and Redis holds the
        // four names and no claim of a failed join
        for proxy in cluster.proxies {
            proxy.endBlackHole(.clientToServer)
            proxy.endBlackHole(.serverToClient)
        }
        try await Self.waitUntilEveryoneKnowsEveryone(members)
        try await waitUntil("Redis to list the four members only", timeout: .seconds(10), asyncCondition: {
            (try? await Self.claims(cluster.redis)) == ["alice": "node0", "ann": "node0", "bob": "node1", "ben": "node1"]
        })
        #expect(anyLeft.withLock { $0 } == false, "ann was told that someone left")

        // And a name whose join failed during the hole joins once the node is back
        let again = Member("late6n0", at: cluster.nodes[1])
        try await again.client.connect()
        try await waitUntil("late6n0 to join on node 1", asyncCondition: { (try? await again.client.join()) != nil })
        reader.cancel()
        drains.forEach { $0.cancel() }
        await cluster.stop()
    }

    @Test
    func aRedisRestartedEmptyAndReachedLaterByOneNodeAllowsNoDoubleClaimAndKeepsSubscriptions() async throws {
        // Given alice on node 0 receiving bob's stream, bob publishing on node 1
        let cluster = try await Cluster.start(nodes: 2, proxied: true)
        let members = try await Self.members(["alice", "bob"], on: [0, 1], of: cluster)
        let (alice, bob) = (members["alice"]!, members["bob"]!)
        try await bob.publish()
        #expect(try await alice.nextSkippingChatAndJoins() == .participantPublished(Peer(identifier: "bob", streams: ["webcam"])))
        try await alice.subscribe(to: "bob")
        let impostor = Member("bob", at: cluster.nodes[0])
        try await impostor.client.connect()

        for round in 0..<20 {
            // When Redis restarts with an empty dataset, and node 1 reaches it 1.5 s after node 0 (its connections
            // are refused until then)
            await cluster.redis.stop()
            cluster.proxies[1].cutAll(refusingFor: .milliseconds(1500))
            try await cluster.redis.restart()

            // Then at no instant can a second bob join on node 0, and within 10 s both nodes hold their member again
            // (and both nodes are out of their outage: /readyz is updated by the server's event loop, which may not
            // have read the node's `.unavailable` yet, and a round begun during a recovery tests something else)
            let recovered = ContinuousClock.now + .seconds(10)
            var restored = false
            while !restored, ContinuousClock.now < recovered {
                if case .success = await Self.timedJoin({ try await impostor.client.join().map(\.identifier) }).0 {
                    Issue.record("round \(round): a second bob joined on node 0")
                    try await impostor.client.leave()
                    break
                }
                restored = (try? await Self.claims(cluster.redis)) == ["alice": "node0", "bob": "node1"]
                    && alice.client.peers.map(\.identifier) == ["bob"] && bob.client.peers.map(\.identifier) == ["alice"]
                    && cluster.nodes.allSatisfy {
                        $0.operations.notReadyReason == nil && ($0.cluster as? ClusterNode)?.isRecovering == false
                    }
            }
            #expect(restored, "round \(round): the members were not back within 10 s")
        }

        // And alice was never told bob left or unpublished: her subscription to him stands
        try await bob.client.sendMessage("end")
        while true {
            let event = try await alice.next()
            if event == .message("end", from: "bob") { break }
            switch event {
            case .participantLeft, .participantUnpublished: Issue.record("alice was told \(event)")
            default: continue
            }
        }
        await cluster.stop()
    }

    @Test func aNameANodeNoLongerHoldsIsReleasedWhenItRegistersAgainAndTheOthersAreToldItLeft() async throws {
        // Given a claim Redis gives node 1 that node 1 does not hold (a release that failed during an outage), which
        // alice, joining on node 0, lists
        let cluster = try await Cluster.start(nodes: 2, proxied: true)
        let redis = RedisConnection(url: try RedisURL(parsing: cluster.redis.url))
        _ = try await redis.command("HSET", "ks:room:demo:members", "ghost", "node1")
        _ = try await redis.command("SADD", "ks:node:node1:members", "demo\nghost")
        let alice = Member("alice", at: cluster.nodes[0])
        #expect(try await alice.join() == ["ghost"])

        // When node 1 loses Redis and registers again
        cluster.proxies[1].cutAll()

        // Then alice is told ghost left, and Redis no longer lists it
        #expect(try await alice.nextSkippingChatAndJoins() == .participantLeft(Peer(identifier: "ghost")))
        #expect(try await Self.claims(cluster.redis) == ["alice": "node0"])
        await cluster.stop()
    }
}
