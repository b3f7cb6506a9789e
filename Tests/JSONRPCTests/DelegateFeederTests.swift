import JSONRPC
import Logging
import SignalingSupport
import TestSupport
import Testing

/// The delegate face's feed: one more subscriber of the client's events, that ends when the delegate goes.
@Suite struct DelegateFeederTests {
    protocol NumberDelegate: AnyObject, Sendable {
        func got(_ number: Int)
    }

    final class Recorder: NumberDelegate {
        let numbers = LockedValue<[Int]>([])
        func got(_ number: Int) { numbers.withLock { $0.append(number) } }
    }

    /// The client the delegate belongs to; alive for the whole suite.
    final class Owner: Sendable {}
    static let owner = Owner()

    static func feed(_ delegate: (any NumberDelegate)?, into feeder: DelegateFeeder<any NumberDelegate>,
                     from events: Broadcast<Int>) {
        feeder.set(delegate, of: owner, events: events, logger: .disabled(label: "test"),
                   deliver: { _, number, delegate in delegate.got(number) },
                   lost: { _, _, _ in })
    }

    @Test func aReplacedDelegateStopsHearingAndItsSubscriptionEnds() async throws {
        // Given a delegate fed from a broadcast
        let events = Broadcast<Int>()
        let feeder = DelegateFeeder<any NumberDelegate>()
        let first = Recorder()
        Self.feed(first, into: feeder, from: events)
        events.publish(1)
        try await waitUntil("the first delegate hears 1") { first.numbers.withLock { $0 } == [1] }

        // When another delegate replaces it, and then none
        let second = Recorder()
        Self.feed(second, into: feeder, from: events)
        events.publish(2)
        try await waitUntil("the second delegate hears 2") { second.numbers.withLock { $0 } == [2] }
        Self.feed(nil, into: feeder, from: events)

        // Then the first heard only what came before, and no subscription is left behind
        try await waitUntil("every feed to unsubscribe") { events.subscriberCount == 0 }
        #expect(first.numbers.withLock { $0 } == [1])
        #expect(feeder.delegate == nil)
    }
}
