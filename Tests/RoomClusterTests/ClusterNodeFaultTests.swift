import Foundation
import SignalingSupport
import TestSupport
import Testing
@testable import RoomCluster

/// A node whose link to Redis suffers an operator network's faults (issue 33): a black hole, resets, a restart.
@Suite(.enabled(if: redisTestsRun, "needs redis-server (make deps installs it; required when CI=true)"))
struct ClusterNodeFaultTests {
    /// Issue 33, item 1: with Redis black-holed and chat going on at 100 posts a second, a claim fails as
    /// unavailable within 2 s of the hole, within 1 s once the node knows Redis is lost, and the posts the node
    /// holds stay bounded; after the heal the node says so and claims work again.
    @Test func aBlackHoleFailsClaimsFastWhileChatGoesOn_andHoldsABoundedQueue() async throws {
        let fixture = try await RedisFaultFixture()
        let (proxy, url) = try fixture.proxy()
        let node = RedisFaultFixture.node("a", url, heartbeat: .milliseconds(200), timeout: .seconds(2),
                                          queueCapacity: 64)
        try await node.start()
        let heard = Arrivals("node a", of: node.events)
        #expect(try await node.claim(user: "alice", room: "demo"))
        let posted = Counter()
        let chat = everyInterval(.milliseconds(10)) {
            node.post("sendMessage", room: "demo", user: "alice", payload: "{\"text\":\"hi\"}")
            posted.increment()
        }

        // When Redis becomes a black hole (sockets open, packets dropped)
        proxy.dropping = true

        // Then a claim fails as unavailable within 2 s of the hole's start
        let first = try await failure(within: .seconds(2) + .milliseconds(500), "a claim in the hole") {
            _ = try await node.claim(user: "bob", room: "demo")
        }
        #expect(isUnavailable(first), "got \(String(describing: first))")
        // and once the node says Redis is unavailable, a claim fails within 1 s
        guard case .unavailable = try await heard.next() else { Issue.record("expected unavailable"); return }
        let second = try await failure(within: .seconds(1), "a claim once Redis is known lost") {
            _ = try await node.claim(user: "carol", room: "demo")
        }
        #expect(isUnavailable(second), "got \(String(describing: second))")
        // and the posts it holds stay within the queue's capacity while 300 more are made
        let before = posted.count
        try await waitUntil("300 more posts") {
            #expect(node.fanout.queued <= 64)
            return posted.count >= before + 300
        }
        #expect(node.fanout.queued <= 64)

        // When the hole heals, the node says it is back and claims work again
        proxy.dropping = false
        var restored = false
        while !restored {
            if case .restored = try await heard.next() { restored = true }
        }
        #expect(try await node.claim(user: "bob", room: "demo"))
        chat.cancel()
        node.halt()
        proxy.stop()
        await fixture.server.stop()
    }

    /// Issue 33, item 5: a claim of ours that Redis already ran (its reply lost, or a leftover) is claimed again
    /// without a fight: the name is this node's, so the claim succeeds and the node's member set lists it.
    @Test func aClaimOfANameRedisAlreadyGaveThisNodeSucceeds() async throws {
        let fixture = try await RedisFaultFixture()
        let node = RedisFaultFixture.node("a", fixture.direct)
        try await node.start()
        let redis = RedisConnection(url: fixture.direct)
        _ = try await redis.command("HSET", "ks:room:demo:members", "alice", "a")
        #expect(try await node.claim(user: "alice", room: "demo"))
        #expect(try await redis.command("SISMEMBER", "ks:node:a:members", "demo\nalice") == .integer(1))
        _ = try await redis.command("HSET", "ks:room:demo:members", "bob", "b")
        #expect(try await node.claim(user: "bob", room: "demo") == false)
        node.halt()
        await fixture.server.stop()
    }
}
