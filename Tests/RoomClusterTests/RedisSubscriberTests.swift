import Foundation
import RoomCluster
import SignalingSupport
import TestSupport
import Testing

/// Pub/sub on its own connection and thread: order, patterns, loss and recovery.
@Suite(.enabled(if: redisTestsRun, "needs redis-server (make deps installs it; required when CI=true)"))
struct RedisSubscriberTests {
    /// A subscriber's events as they arrive, read one at a time with a deadline; nil once the stream ended.
    static func events(_ subscriber: RedisSubscriber) -> Arrivals<RedisSubscriber.Event?> {
        Arrivals("subscriber events", of: subscriber.events.map { Optional($0) }, end: .some(nil))
    }

    @Test func aFastPublishersMessagesArriveOnceEachInOrder() async throws {
        // Given a subscriber to room:r and a pattern over node channels
        let (server, url, publisher) = try await redisFixture()
        let subscriber = RedisSubscriber(url: url, channels: ["room:r"], patterns: ["node:*"])
        let events = Self.events(subscriber)
        #expect(try await events.next() == .subscribed)

        // When 2,000 messages are published as fast as one connection can
        for index in 0..<2000 { _ = try await publisher.command("PUBLISH", "room:r", "m\(index)") }
        _ = try await publisher.command("PUBLISH", "node:b", "direct")

        // Then each arrives once, in order, then the pattern's
        for index in 0..<2000 {
            #expect(try await events.next() == .message(channel: "room:r", payload: "m\(index)"))
        }
        #expect(try await events.next() == .message(channel: "node:b", payload: "direct"))
        subscriber.stop()
        await server.stop()
    }

    @Test func aLostRedisIsReportedAndTheSubscriptionComesBackWithIt() async throws {
        let (server, url, publisher) = try await redisFixture()
        let subscriber = RedisSubscriber(url: url, channels: ["room:r"], retryDelay: .milliseconds(50))
        let events = Self.events(subscriber)
        #expect(try await events.next() == .subscribed)

        // When Redis goes away, then comes back
        await server.stop()
        guard case .lost? = try await events.next() else { Issue.record("expected lost"); return }
        try await server.restart()

        // Then the subscriber says it is subscribed again, and messages flow
        #expect(try await events.next() == .subscribed)
        _ = try await publisher.command("PUBLISH", "room:r", "after")
        #expect(try await events.next() == .message(channel: "room:r", payload: "after"))
        subscriber.stop()
        await server.stop()
    }

    @Test func aSilentRedisIsNoticedByThePing() async throws {
        // Given a subscription with a short ping interval, to a Redis that then stops answering (SIGSTOP)
        let (server, url, _) = try await redisFixture()
        let subscriber = RedisSubscriber(url: url, channels: ["room:r"], timeout: .milliseconds(300),
                                         pingInterval: .milliseconds(200))
        let events = Self.events(subscriber)
        #expect(try await events.next() == .subscribed)
        server.kill(SIGSTOP)

        // Then the loss is reported, and the subscription returns once Redis answers again
        guard case .lost? = try await events.next() else { Issue.record("expected lost"); return }
        server.kill(SIGCONT)
        #expect(try await events.next() == .subscribed)
        subscriber.stop()
        await server.stop()
    }

    @Test func stopEndsTheStream() async throws {
        let (server, url, _) = try await redisFixture()
        let subscriber = RedisSubscriber(url: url, channels: ["c"])
        let events = Self.events(subscriber)
        #expect(try await events.next() == .subscribed)
        subscriber.stop()
        #expect(try await events.next() == nil)
        await server.stop()
    }
}
