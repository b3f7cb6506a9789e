import JSONRPC
import SignalingSupport
import Testing
import TestSupport

/// `RPCRequestContext.claimCompletion()` (docs/architecture.md#handler-deadlines): a handler claims its outcome
/// before it commits; the claim and the deadline are decided in one step, so a request is never answered -32001
/// after its handler committed, and a handler past its deadline learns it must not commit.
@Suite struct ClaimCompletionTests {
    private func request(_ method: String, id: Int) -> String {
        #"{"jsonrpc":"2.0","method":"\#(method)","id":\#(id),"params":[]}"#
    }

    @Test func aHandlerThatClaimedBeforeItsDeadlineIsAnsweredWithItsResult() async throws {
        // Given a 5 s deadline on a manual clock, and a handler that claims, then lets the deadline pass
        let clock = ManualClock()
        let server = JSONRPCServer(configuration: .init(conventions: .plain, clock: clock, handlerTimeout: .seconds(5)))
        server.register("commit") { _, context in
            guard context.claimCompletion() else { return "abandoned" }
            clock.advance(by: .seconds(5))
            return context.claimCompletion() ? "committed" : "claimed once, refused later"
        }
        let peer = RawPeer.connected(to: server)

        // Then its caller gets its result, not -32001
        #expect(try await peer.exchange(request("commit", id: 1)) == ["jsonrpc": "2.0", "id": 1, "result": "committed"])
    }

    @Test func aClaimAfterTheDeadlineFails() async throws {
        // Given a 5 s deadline on a manual clock, and a handler that waits until the test lets it go, then claims
        let clock = ManualClock(), gate = Gate(), claims = LockedValue<[Bool]>([])
        let server = JSONRPCServer(configuration: .init(conventions: .plain, clock: clock, handlerTimeout: .seconds(5)))
        server.register("late") { _, context in
            await gate.wait()
            let claimed = context.claimCompletion()
            claims.withLock { $0.append(claimed) }
            return "late"
        }
        let peer = RawPeer.connected(to: server)

        // When its deadline passes first
        try await peer.send(request("late", id: 1))
        try await waitUntil("the deadline's timer") { clock.pendingTimers == 1 }
        clock.advance(by: .seconds(5))
        #expect(try await peer.receive()["error"]?["code"] == .int(RPCErrorObject.handlerTimedOutCode))

        // Then its claim fails once it gets there
        gate.open()
        try await waitUntil("the handler to claim") { !claims.withLock { $0 }.isEmpty }
        #expect(claims.withLock { $0 } == [false])
    }
}
