import Foundation
import RoomCluster
import RoomClusterCore
import SignalingSupport
import TestSupport
import Testing

/// The command connection against a real redis-server of the test's own.
@Suite(.enabled(if: redisTestsRun, "needs redis-server (make deps installs it; required when CI=true)"))
struct RedisConnectionTests {
    @Test func commandsReturnTypedReplies() async throws {
        let (server, _, redis) = try await redisFixture()
        #expect(try await redis.command("PING") == .status("PONG"))
        #expect(try await redis.command("SET", "k", "välue \"quoted\"") == .status("OK"))
        #expect(try await redis.command("GET", "k") == .bulk("välue \"quoted\""))
        #expect(try await redis.command("GET", "missing") == .null)
        #expect(try await redis.command("HSET", "h", "a", "1", "b", "2") == .integer(2))
        let all = try #require(try await redis.command("HGETALL", "h").array)
        #expect(Set(all.compactMap(\.string)) == ["a", "1", "b", "2"])
        await #expect(throws: RedisError.server("ERR unknown command 'NOPE', with args beginning with: ")) {
            _ = try await redis.command("NOPE")
        }
        // An error leaves the connection usable
        #expect(try await redis.command("EXISTS", "k") == .integer(1))
        await server.stop()
    }

    @Test func aTransactionRunsWhole_andARefusedCommandLeavesNoOpenMULTI() async throws {
        let (server, _, redis) = try await redisFixture()
        let replies = try await redis.transaction([["INCR", "n"], ["INCR", "n"], ["GET", "n"]])
        #expect(replies == .array([.integer(1), .integer(2), .bulk("2")]))
        await #expect(throws: RedisError.self) { _ = try await redis.transaction([["INCR"]]) }
        #expect(try await redis.command("GET", "n") == .bulk("2"))
        await server.stop()
    }

    @Test func twoNodesClaimingOneNameAtTheSameInstantGetOneWinner() async throws {
        // Given two connections (two nodes) to one Redis
        let (server, url, first) = try await redisFixture()
        let second = RedisConnection(url: url)
        for round in 0..<50 {
            // When both claim the same user name of a room at once
            let key = "room:r\(round):names"
            async let a = first.command("HSETNX", key, "bob", "node-a")
            async let b = second.command("HSETNX", key, "bob", "node-b")
            let claims = try await [a, b]
            // Then exactly one succeeds, and the name belongs to it
            #expect(claims.filter { $0 == .integer(1) }.count == 1)
            let owner = try await first.command("HGET", key, "bob").string
            #expect(owner == (claims[0] == .integer(1) ? "node-a" : "node-b"))
        }
        await server.stop()
    }

    @Test func aPasswordIsSentAndAWrongOneIsAClearError() async throws {
        let (server, url, redis) = try await redisFixture(password: "cluster-secret")
        #expect(try await redis.command("PING") == .status("PONG"))
        var wrong = url
        wrong.password = "guess"
        await #expect(throws: RedisError.self) { _ = try await RedisConnection(url: wrong).command("PING") }
        var none = url
        none.password = nil
        let refused = await #expect(throws: RedisError.self) { _ = try await RedisConnection(url: none).command("GET", "x") }
        #expect(refused.map { "\($0)" }?.contains("NOAUTH") == true)
        await server.stop()
    }

    @Test func noRedisIsUnavailableAtOnce_andAStoppedOneWithinTheTimeout() async throws {
        // Given a Redis that is then stopped (SIGSTOP: connected sockets, no answers)
        let (server, url, redis) = try await redisFixture(timeout: .milliseconds(300))
        #expect(try await redis.command("PING") == .status("PONG"))
        server.kill(SIGSTOP)

        // Then a command fails as unavailable once its timeout passed, not later
        let started = ContinuousClock.now
        let stalled = await #expect(throws: RedisError.self) { _ = try await redis.command("PING") }
        #expect(ContinuousClock.now - started < .seconds(3) * deadlineScale)
        guard case .unavailable? = stalled else { Issue.record("expected unavailable, got \(String(describing: stalled))"); return }

        // And a Redis that is gone is unavailable at once
        await server.stop()
        let gone = await #expect(throws: RedisError.self) { _ = try await RedisConnection(url: url).command("PING") }
        #expect(gone.map { "\($0)" }?.contains("cluster unavailable") == true)
    }

    @Test func aRestartedRedisIsUsedAgainByTheNextCommand() async throws {
        let (server, _, redis) = try await redisFixture()
        #expect(try await redis.command("SET", "k", "v") == .status("OK"))
        await server.stop()
        await #expect(throws: RedisError.self) { _ = try await redis.command("GET", "k") }
        try await server.restart()
        // Once lost, commands fail at once but for one attempt to reach Redis per reconnect interval (issue 33): a
        // command after it finds the restarted Redis (no persistence: empty)
        try await waitUntil("a command to reach the restarted Redis") {
            (try? await redis.command("GET", "k")) == .null
        }
        await server.stop()
    }

    /// Issue 33, item 5: Redis ran a command and the connection reset while its reply was on the way: the command is
    /// not sent again (HINCRBY ran once), and the caller hears "unavailable".
    @Test func aCommandWhoseReplyWasCutShortRunsOnce() async throws {
        let (server, _, direct) = try await redisFixture()
        let proxy = try FaultProxy(targetPort: server.port)
        let redis = RedisConnection(url: try RedisURL(parsing: "redis://127.0.0.1:\(proxy.port)"))
        #expect(try await redis.command("PING") == .status("PONG"))

        proxy.cutNextChunkInHalfAndReset(.serverToClient)
        let cut = await #expect(throws: RedisError.self) { _ = try await redis.command("HINCRBY", "h", "n", "1") }
        #expect(isUnavailable(cut), "got \(String(describing: cut))")
        #expect(try await direct.command("HGET", "h", "n") == .bulk("1"))
        proxy.stop()
        await server.stop()
    }

    /// Issue 33, item 5: a connection Redis closed while it was idle (a restart) is found closed before the next
    /// command is written, and that command is sent once, on a new connection.
    @Test func aConnectionClosedWhileIdleIsReplacedBeforeTheCommandIsSent() async throws {
        let (server, _, redis) = try await redisFixture()
        #expect(try await redis.command("INCR", "n") == .integer(1))
        await server.stop()
        try await server.restart()
        #expect(try await redis.command("INCR", "n") == .integer(1))
        await server.stop()
    }
}
