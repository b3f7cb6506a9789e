@testable import JSONRPC
import Testing

/// `SessionDelivery` as a pure value (docs/wire-protocol.md#delivery): implicit numbers, release by writes or by
/// acknowledgements, and what a resume hands the new connection.
@Suite struct SessionDeliveryTests {
    private func handed(_ count: Int, _ delivery: inout SessionDelivery, from first: Int = 1) {
        for n in first..<(first + count) { delivery.handed("n\(n)") }
    }

    @Test func aStockClientsNotificationsAreReleasedWhenWrittenAndTheUnwrittenOnesGoAgain() {
        var delivery = SessionDelivery()
        handed(5, &delivery)
        #expect(delivery.written(3) == 3)
        #expect(delivery.released == 3 && delivery.log.count == 2)
        // A resume without `received` gets what was not written
        guard case .success(let replay) = delivery.resume(received: nil, resuming: true) else {
            Issue.record("refused")
            return
        }
        #expect(Array(replay) == ["n4", "n5"])
        #expect(delivery.mode == .written)
    }

    @Test func aCountingClientGetsExactlyWhatFollowsTheLastOneItReadWhateverWasWritten() {
        var delivery = SessionDelivery()
        _ = delivery.resume(received: 0, resuming: false)  // connect {"received": 0}
        handed(6, &delivery)
        #expect(delivery.written(6) == 0)  // written is not read: nothing is released
        #expect(delivery.acknowledge(2) == 2)
        guard case .success(let replay) = delivery.resume(received: 4, resuming: true) else {
            Issue.record("refused")
            return
        }
        #expect(Array(replay) == ["n5", "n6"])
        #expect(delivery.released == 4)
        // Of what the old connection wrote, only 5 and 6 go again (and wait again, for the metrics)
        #expect(delivery.startEpoch() == 2)
    }

    @Test func aResumeThatClaimsTooMuchOrTooLittleIsRefused() {
        var delivery = SessionDelivery()
        _ = delivery.resume(received: 0, resuming: false)
        handed(3, &delivery)
        _ = delivery.acknowledge(2)
        #expect(delivery.resume(received: 4, resuming: true) == .failure(.beyondSent(received: 4, sent: 3)))
        #expect(delivery.resume(received: 1, resuming: true) == .failure(.alreadyReleased(received: 1, released: 2)))
        // An acknowledgement of more than was sent, or of what is released already, changes nothing
        #expect(delivery.acknowledge(9) == 0 && delivery.acknowledge(1) == 0)
        #expect(delivery.released == 2 && delivery.bytes == "n3".utf8.count)
    }

    @Test func theEndDropsOnlyWhatTheCurrentConnectionDidNotWrite() {
        var delivery = SessionDelivery()
        _ = delivery.resume(received: 0, resuming: false)
        handed(4, &delivery)
        _ = delivery.written(3)
        #expect(delivery.unwritten == 1)
        #expect(delivery.discardAll() == 1)
        #expect(delivery.log.isEmpty && delivery.bytes == 0)
    }
}
