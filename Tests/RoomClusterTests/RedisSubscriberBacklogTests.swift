import Foundation
import RoomCluster
import SignalingSupport
import TestSupport
import Testing

/// A reader that falls behind (issue 33, item 3): the subscriber holds at most its capacity, reports the loss and
/// subscribes again, rather than growing in our process while Redis's output-buffer limit never triggers.
@Suite(.enabled(if: redisTestsRun, "needs redis-server (make deps installs it; required when CI=true)"))
struct RedisSubscriberBacklogTests {
    @Test func aReaderThatFallsBehindGetsTheCapacityThenTheLossThenTheSubscriptionAgain() async throws {
        // Given a subscriber (default capacity) whose reader stops reading once subscribed
        let capacity = 10_000
        let (server, url, publisher) = try await redisFixture()
        let subscriber = RedisSubscriber(url: url, channels: ["room:r"])
        let first = try await withDeadline(.seconds(10), "subscribed") { () async -> RedisSubscriber.Event? in
            for await event in subscriber.events { return event }
            return nil
        }
        #expect(first == .subscribed)

        // When 100,000 messages are published (one script, so Redis queues them all for the subscriber at once)
        _ = try await publisher.command(
            "EVAL", "for i = 1, tonumber(ARGV[1]) do redis.call('PUBLISH', KEYS[1], 'm' .. i) end", "1", "room:r",
            "100000")

        // Then the subscriber lets go of Redis once it holds its capacity, rather than drain Redis into memory
        try await waitUntil("the subscriber to leave Redis", timeout: .seconds(10), asyncCondition: {
            (try? await publisher.command("PUBSUB", "NUMSUB", "room:r"))?.array?.last == .integer(0)
        })

        // and once the reader reads again, it gets the oldest messages up to the capacity, in order, then the loss,
        // then the subscription again, and messages flow
        let events = RedisSubscriberTests.events(subscriber)
        for index in 1...capacity {
            let event = try await events.next()
            guard event == .message(channel: "room:r", payload: "m\(index)") else {
                Issue.record("message \(index): got \(String(describing: event))")
                break
            }
        }
        let lost = try await events.next()
        guard case .lost(let reason)? = lost else { Issue.record("expected lost, got \(String(describing: lost))"); return }
        #expect(reason.contains("fell behind"), "\(reason)")
        #expect(try await events.next() == .subscribed)
        _ = try await publisher.command("PUBLISH", "room:r", "after")
        #expect(try await events.next() == .message(channel: "room:r", payload: "after"))
        subscriber.stop()
        await server.stop()
    }
}
