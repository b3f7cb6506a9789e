import JSONRPC
import TestSupport
import Testing

@Suite struct BroadcastTests {
    @Test func everySubscriberSeesEveryEventInOrder() async throws {
        let broadcast = Broadcast<Int>()
        let first = broadcast.subscribe(), second = broadcast.subscribe()
        for i in 0..<5 { broadcast.publish(i) }
        broadcast.finish()
        var a: [Int] = [], b: [Int] = []
        for try await i in first { a.append(i) }
        for try await i in second { b.append(i) }
        #expect(a == [0, 1, 2, 3, 4])
        #expect(b == a)
    }

    @Test func overflowEndsOnlyTheSlowSubscriberWithAnError() async throws {
        let broadcast = Broadcast<Int>()
        let slow = broadcast.subscribe(bufferLimit: 2)
        let roomy = broadcast.subscribe(bufferLimit: 10)
        for i in 0..<3 { broadcast.publish(i) }
        broadcast.finish()
        var received: [Int] = []
        await #expect(throws: BroadcastOverflow.self) {
            for try await i in slow { received.append(i) }
        }
        #expect(received == [0, 1])  // buffered events are delivered before the error, nothing silently
        var all: [Int] = []
        for try await i in roomy { all.append(i) }
        #expect(all == [0, 1, 2])
    }

    @Test func replayingBroadcastStartsNewSubscribersWithTheLatestValue() async throws {
        let broadcast = Broadcast<String>(replaysLatest: true)
        broadcast.publish("old")
        broadcast.publish("current")
        let late = broadcast.subscribe()
        broadcast.finish()
        var seen: [String] = []
        for try await s in late { seen.append(s) }
        #expect(seen == ["current"])
    }

    @Test func anOverflowedSubscriberIsEndedExactlyOnceAndANewSubscriberGoesOn() async throws {
        // Given a subscriber with room for two that does not read
        let broadcast = Broadcast<Int>()
        let slow = broadcast.subscribe(bufferLimit: 2)

        // When three events are published, then it reads
        for i in 0..<3 { broadcast.publish(i) }
        var iterator = slow.makeAsyncIterator()
        let buffered = [try await iterator.next(), try await iterator.next()]

        // Then it gets what it buffered, the overflow once, and then nothing more, while a new subscriber goes on
        #expect(buffered == [0, 1])
        await #expect(throws: BroadcastOverflow(limit: 2)) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
        let fresh = broadcast.subscribe()
        broadcast.publish(3)
        broadcast.finish()
        var later: [Int] = []
        for try await i in fresh { later.append(i) }
        #expect(later == [3])
    }

    @Test func aLossReportingSubscriberIsToldOnceHowManyEventsItMissedAndGoesOn() async throws {
        // Given a loss-reporting subscriber with room for two
        let broadcast = Broadcast<Int>()
        let subscriber = broadcast.subscribeReportingLoss(bufferLimit: 2)
        var iterator = subscriber.makeAsyncIterator()

        // When five events are published before it reads, it reads two, and two more are published
        for i in 0..<5 { broadcast.publish(i) }
        var deliveries = [await iterator.next(), await iterator.next()]
        broadcast.publish(5)
        broadcast.publish(6)
        broadcast.finish()
        while let delivery = await iterator.next() { deliveries.append(delivery) }

        // Then it got the two that fit, one report of the three it missed, in place, and the later ones
        #expect(deliveries.map(Self.describe) == ["0", "1", "lost 3", "5", "6"])
    }

    @Test func aLossIsReportedAsSoonAsTheSubscriberCatchesUpWithoutWaitingForMoreEvents() async throws {
        // Given a loss-reporting subscriber with room for two
        let broadcast = Broadcast<Int>()
        let subscriber = broadcast.subscribeReportingLoss(bufferLimit: 2)

        // When five events are published, and nothing after them
        for i in 0..<5 { broadcast.publish(i) }

        // Then reading gives the two that fit and then the report of the three it missed
        let deliveries = try await withDeadline(.seconds(10), "three deliveries") {
            var iterator = subscriber.makeAsyncIterator()
            return [await iterator.next(), await iterator.next(), await iterator.next()].map(Self.describe)
        }
        #expect(deliveries == ["0", "1", "lost 3"])
        broadcast.finish()
    }

    @Test func aLossStillUnreportedWhenTheBroadcastEndsIsReportedLast() async throws {
        // Given a loss-reporting subscriber with room for one
        let broadcast = Broadcast<Int>()
        let subscriber = broadcast.subscribeReportingLoss(bufferLimit: 1)

        // When three events are published and the broadcast ends before it reads
        for i in 0..<3 { broadcast.publish(i) }
        broadcast.finish()

        // Then it gets the one that fit and then the report of the two it missed
        var deliveries: [String] = []
        for await delivery in subscriber { deliveries.append(Self.describe(delivery)) }
        #expect(deliveries == ["0", "lost 2"])
        #expect(broadcast.subscriberCount == 0)
    }

    private static func describe(_ delivery: BroadcastDelivery<Int>?) -> String {
        switch delivery {
        case .event(let i)?: "\(i)"
        case .lost(let count)?: "lost \(count)"
        case nil: "end"
        }
    }
}
