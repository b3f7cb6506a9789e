import Foundation
import RoomClusterCore
import SignalingSupport
import TestSupport
import Testing
@testable import RoomCluster

/// Nodes of one cluster in one process, each with its own Redis connections, against a real redis-server.
@Suite(.enabled(if: redisTestsRun, "needs redis-server (make deps installs it; required when CI=true)"))
struct ClusterNodeTests {
    /// A node with short intervals: a heartbeat every 100 ms, dead after 3 s (longer than a busy two-core
    /// machine's stalls, which made nodes presume each other dead at 400 ms), both stretched for sanitizer runs.
    static func node(_ id: String, _ url: RedisURL) async throws -> ClusterNode {
        let node = ClusterNode(configuration: ClusterConfiguration(
            redis: url, nodeID: id, heartbeatInterval: .milliseconds(100),
            nodeTimeout: .seconds(3) * deadlineScale, timeout: .seconds(2) * deadlineScale))
        try await node.start()
        return node
    }

    /// A fresh redis-server, its URL, and started nodes named `ids`.
    static func cluster(_ ids: String...) async throws -> (RedisServerProcess, RedisURL, [ClusterNode]) {
        let server = try await RedisServerProcess()
        let url = try RedisURL(parsing: server.url)
        var nodes: [ClusterNode] = []
        for id in ids { nodes.append(try await node(id, url)) }
        return (server, url, nodes)
    }

    /// What a node hears, read one at a time with a deadline.
    static func heard(_ node: ClusterNode) -> Arrivals<ClusterNode.Incoming> {
        Arrivals("node \(node.configuration.nodeID)", of: node.events)
    }

    @Test func ofTwoNodesClaimingOneNameAtOnceExactlyOneWins() async throws {
        let (server, _, nodes) = try await Self.cluster("a", "b")
        let (a, b) = (nodes[0], nodes[1])
        for round in 0..<100 {
            async let first = a.claim(user: "bob", room: "r\(round)")
            async let second = b.claim(user: "bob", room: "r\(round)")
            let (x, y) = try await (first, second)
            #expect(x != y, "round \(round): both or neither won")
            let members = try await a.members(of: "r\(round)")
            #expect(members == [.init(user: "bob", node: x ? "a" : "b", publishing: false)])
        }
        a.halt(); b.halt()
        await server.stop()
    }

    @Test func membersListEveryNodesParticipantsWithTheirStreams() async throws {
        let (server, _, nodes) = try await Self.cluster("a", "b")
        let (a, b) = (nodes[0], nodes[1])
        #expect(try await a.claim(user: "alice", room: "demo"))
        #expect(try await b.claim(user: "bob", room: "demo"))
        try await b.setPublishing(true, user: "bob", room: "demo")
        #expect(try await a.members(of: "demo") == [
            .init(user: "alice", node: "a", publishing: false), .init(user: "bob", node: "b", publishing: true),
        ])
        // A release only removes what the releasing node holds
        try await a.release(user: "bob", room: "demo")
        #expect(try await a.members(of: "demo").map(\.user) == ["alice", "bob"])
        try await b.release(user: "bob", room: "demo")
        #expect(try await a.members(of: "demo") == [.init(user: "alice", node: "a", publishing: false)])
        a.halt(); b.halt()
        await server.stop()
    }

    @Test func aFastSendersEventsReachTheOtherNodesOnceEachInOrder() async throws {
        let (server, _, nodes) = try await Self.cluster("a", "b", "c")
        let (a, b, c) = (nodes[0], nodes[1], nodes[2])
        let heardB = Self.heard(b), heardC = Self.heard(c), heardA = Self.heard(a)

        // When node a posts 1,000 events at once
        for index in 1...1000 { a.post("sendMessage", room: "demo", user: "alice", payload: "{\"n\":\(index)}") }

        // Then b and c each get every one, in order, and a hears none of its own
        for heard in [heardB, heardC] {
            for index in 1...1000 {
                guard case .event(let event) = try await heard.next() else { Issue.record("not an event"); return }
                #expect(event.origin == "a" && event.sequence == UInt64(index) && event.payload == "{\"n\":\(index)}")
            }
        }
        b.post("marker", room: "demo", user: "bob", payload: "")
        guard case .event(let marker) = try await heardA.next() else { Issue.record("not an event"); return }
        #expect(marker.kind == "marker")
        a.halt(); b.halt(); c.halt()
        await server.stop()
    }

    @Test func oversizedPayloadsAreNotSentAndForeignMessagesAreDropped() async throws {
        let server = try await RedisServerProcess()
        let url = try RedisURL(parsing: server.url)
        let a = ClusterNode(configuration: ClusterConfiguration(redis: url, nodeID: "a", maxPayloadBytes: 100))
        try await a.start()
        let b = try await Self.node("b", url)
        let heardB = Self.heard(b)
        #expect(!a.post("big", room: "demo", user: "alice", payload: String(repeating: "x", count: 101)))
        _ = try await RedisConnection(url: url).command("PUBLISH", "ks:room:demo", "not an event")
        a.post("small", room: "demo", user: "alice", payload: "ok")
        guard case .event(let event) = try await heardB.next() else { Issue.record("not an event"); return }
        #expect(event.kind == "small")
        #expect(b.droppedMessages == 1)
        a.halt(); b.halt()
        await server.stop()
    }

    @Test func aDeadNodesParticipantsLeaveOnceForEveryoneWithinItsTimeout() async throws {
        // Given three nodes, and two participants on node a
        let (server, _, nodes) = try await Self.cluster("a", "b", "c")
        let (a, b, c) = (nodes[0], nodes[1], nodes[2])
        #expect(try await a.claim(user: "alice", room: "demo"))
        #expect(try await a.claim(user: "ann", room: "other"))
        #expect(try await b.claim(user: "bob", room: "demo"))
        let heardB = Self.heard(b), heardC = Self.heard(c)

        // When node a dies without a goodbye
        let died = ContinuousClock.now
        a.halt()

        // Then b and c each hear one departure per participant of a, within the timeout and a heartbeat or two
        for heard in [heardB, heardC] {
            var departed: Set<String> = []
            for _ in 0..<2 {
                guard case .event(let event) = try await heard.next() else { Issue.record("not an event"); return }
                #expect(event.kind == ClusterEvent.departed && event.origin == "a")
                departed.insert("\(event.room)/\(event.user)")
            }
            #expect(departed == ["demo/alice", "other/ann"])
        }
        #expect(ContinuousClock.now - died < .seconds(6) * deadlineScale)
        #expect(try await b.members(of: "demo").map(\.user) == ["bob"])
        // and nothing more: a marker from b reaches c right after
        b.post("marker", room: "demo", user: "bob", payload: "")
        guard case .event(let marker) = try await heardC.next() else { Issue.record("not an event"); return }
        #expect(marker.kind == "marker")
        b.halt(); c.halt()
        await server.stop()
    }

    @Test func aRedisRestartIsReportedAndEveryNodeRegistersItsParticipantsAgain() async throws {
        let (server, _, nodes) = try await Self.cluster("a", "b")
        let (a, b) = (nodes[0], nodes[1])
        #expect(try await a.claim(user: "alice", room: "demo"))
        #expect(try await b.claim(user: "bob", room: "demo"))
        try await b.setPublishing(true, user: "bob", room: "demo")
        let heardA = Self.heard(a), heardB = Self.heard(b)

        // When Redis restarts empty
        await server.stop()
        guard case .unavailable? = try? await heardA.next() else { Issue.record("a: expected unavailable"); return }
        guard case .unavailable? = try? await heardB.next() else { Issue.record("b: expected unavailable"); return }
        await #expect(throws: RedisError.self) { _ = try await a.claim(user: "carol", room: "demo") }
        try await server.restart()

        // Then both say they are back, with their participants registered again
        #expect(try await heardA.next() == .restored)
        #expect(try await heardB.next() == .restored)
        #expect(try await a.members(of: "demo") == [
            .init(user: "alice", node: "a", publishing: false), .init(user: "bob", node: "b", publishing: true),
        ])
        a.halt(); b.halt()
        await server.stop()
    }

    @Test func aGracefulStopReleasesEveryParticipant() async throws {
        let (server, url, nodes) = try await Self.cluster("a", "b")
        let (a, b) = (nodes[0], nodes[1])
        #expect(try await a.claim(user: "alice", room: "demo"))
        await a.stop()
        #expect(try await b.members(of: "demo").isEmpty)
        #expect(try await RedisConnection(url: url).command("SISMEMBER", "ks:nodes", "a") == .integer(0))
        b.halt()
        await server.stop()
    }
}
