import JSONRPC
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
}
