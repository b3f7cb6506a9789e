@testable import JSONRPC
import SignalingSupport
import Testing

/// `RequestTable` as a pure value (docs/architecture.md#exactly-once): one timer for every deadline, retries with the
/// same text, and completion by whichever path comes first.
@Suite struct RequestTableTests {
    private let t0 = ClockInstant(offset: .zero)

    private func register(_ table: inout RequestTable, _ id: Int, at now: ClockInstant, timeout: Duration = .seconds(5),
                          retries: Int = 0, kind: RequestTable.Kind = .call) -> ClockInstant? {
        table.register(.number(id), method: "m\(id)", text: "t\(id)", kind: kind, timeout: timeout, retries: retries,
                       now: now) { _ in }.arm
    }

    @Test func onlyTheEarliestDeadlineArmsTheTimer() {
        var table = RequestTable()
        #expect(register(&table, 0, at: t0) == t0 + .seconds(5))
        // Later deadlines (every call, when they share one timeout) arm nothing
        #expect(register(&table, 1, at: t0 + .milliseconds(1)) == nil)
        #expect(register(&table, 2, at: t0 + .milliseconds(2)) == nil)
        // An earlier one (a ping's shorter timeout) re-arms for itself
        #expect(register(&table, -1, at: t0 + .milliseconds(3), timeout: .seconds(1), kind: .control)
            == t0 + .milliseconds(1003))
        #expect(table.armedAt == t0 + .milliseconds(1003))
    }

    @Test func aPassedDeadlineRetriesWithTheSameTextThenFailsAndArmsForTheNext() {
        var table = RequestTable()
        let first = register(&table, 0, at: t0, retries: 1)
        _ = register(&table, 1, at: t0 + .seconds(1))
        let armed = try! #require(first)

        // When the timer fires at the first deadline: call 0 is re-sent (attempt 2, 10 s), call 1 is not due
        let (actions, next) = table.expire(firedFor: armed, now: armed)
        #expect(actions.count == 1)
        guard case .resend(let text, _)? = actions.first else { Issue.record("expected a resend"); return }
        #expect(text == "t0")
        #expect(next == t0 + .seconds(6))  // call 1's deadline

        // When it fires at call 1's deadline, then at call 0's second one
        let (second, afterSecond) = table.expire(firedFor: t0 + .seconds(6), now: t0 + .seconds(6))
        #expect(second.count == 1)
        #expect(afterSecond == t0 + .seconds(15))
        let (third, afterThird) = table.expire(firedFor: t0 + .seconds(15), now: t0 + .seconds(15))
        guard case .fail(_, let error)? = third.first else { Issue.record("expected a failure"); return }
        #expect(error == .timeout(method: "m0", attempts: 2))
        #expect(afterThird == nil)
        #expect(table.entries.isEmpty)
    }

    @Test func withoutResendingARetryOnlyWaitsLongerAndTheTimeoutCountsOneSend() {
        // A server that does not dedupe (docs/wire-protocol.md#stock-kurento): a copy would run again
        var table = RequestTable()
        let armed = try! #require(register(&table, 0, at: t0, retries: 1))
        let (actions, next) = table.expire(firedFor: armed, now: armed, resending: false)
        #expect(actions.isEmpty)
        #expect(next == t0 + .seconds(15))  // the same schedule as a retry: twice the timeout
        let (last, _) = table.expire(firedFor: t0 + .seconds(15), now: t0 + .seconds(15), resending: false)
        guard case .fail(_, let error)? = last.first else { Issue.record("expected a failure"); return }
        #expect(error == .timeout(method: "m0", attempts: 1))
    }

    @Test func aCompletedRequestIsNeitherRetriedNorFailedAndASupersededTimerDoesNothing() {
        var table = RequestTable()
        let armed = try! #require(register(&table, 0, at: t0, retries: 3))
        #expect(table.complete(.number(0), succeeding: true) != nil)
        #expect(table.complete(.number(0), succeeding: true) == nil)  // a duplicate response finds nothing
        // A timer for an instant no longer armed (superseded) does nothing
        let (stale, staleNext) = table.expire(firedFor: armed + .seconds(1), now: armed + .seconds(1))
        #expect(stale.isEmpty && staleNext == nil)
        // The armed one finds the completed request gone, and nothing left to arm for
        let (actions, next) = table.expire(firedFor: armed, now: armed)
        #expect(actions.isEmpty && next == nil)
    }

    @Test func controlRequestsAreFailedApartAndNeverResent() {
        var table = RequestTable()
        _ = register(&table, 0, at: t0)
        _ = register(&table, -1, at: t0, kind: .control)
        #expect(table.removeAll(.control).count == 1)
        #expect(table.callIDs == [.number(0)])
        #expect(table.pendingCalls.map(\.text) == ["t0"])
    }

    @Test func manyCompletedRequestsLeaveNoDeadlinesBehind() {
        // Given 10,000 calls registered and answered one after the other
        var table = RequestTable()
        for id in 0..<10_000 {
            _ = register(&table, id, at: t0 + .milliseconds(id))
            _ = table.complete(.number(id), succeeding: true)
        }
        // Then the first deadline's timer finds nothing, and arms for nothing
        let (actions, next) = table.expire(firedFor: t0 + .seconds(5), now: t0 + .seconds(20))
        #expect(actions.isEmpty && next == nil)
        #expect(table.entries.isEmpty)
    }
}
