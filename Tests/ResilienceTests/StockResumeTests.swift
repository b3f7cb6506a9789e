import JSONRPC
import SignalingSupport
import TestSupport
import Testing

/// A resume against a server that does not say it dedupes (a stock Kurento server: its `connect` result has no
/// `capabilities`), or with re-sending turned off: the requests in flight are not sent again, since the server may
/// have run them; each fails once with connectionClosed (docs/wire-protocol.md#stock-kurento).
struct StockResumeTests {
    let base = ReconnectLifecycleTests()

    /// Drops the connection of `client` with one call in flight, resumes with `reply`, and returns the call's outcome
    /// and the first message the new connection gets after the resume (a new call made once the old one ended).
    func resume(_ client: JSONRPCClient, replying reply: JSONValue) async throws
        -> (outcome: Result<JSONValue, any Error>, next: JSONValue, capabilities: ServerCapabilities?)
    {
        let log = StateLog(client)
        let first = try await base.connectWithSession(client)
        let call = Task { try await client.call("publishVideo", params: ["sdpOffer": "v=0"]) }
        _ = try await first.receive()
        await first.close(code: 1006, reason: "network")
        try await log.wait(for: "reconnecting") { $0 == .reconnecting(attempt: 1) }
        try await advance(base.clock, by: .milliseconds(300), whenTimersExceed: 1)
        let second = try await base.transport.nextPeer()
        try await second.reply(to: try await second.receive(), reply)
        let outcome = await call.result.mapError { $0 as any Error }
        try await log.wait(for: "resumed") { $0 == .resumed }
        let after = Task { try await client.call("after") }
        let next = try await second.receive()
        try await second.reply(to: next, ["value": "ok", "sessionId": "S1"])
        _ = try await after.value
        return (outcome, next, client.serverCapabilities)
    }

    @Test func aServerThatDoesNotSayItDedupesGetsNothingAgainAndTheCallFailsOnce() async throws {
        let result = try await resume(base.client(), replying: ["value": "reconnection successful", "sessionId": "S1"])
        #expect(result.capabilities == [])
        #expect(result.next["method"] == "after")
        guard case .failure(RPCError.connectionClosed) = result.outcome else {
            Issue.record("expected connectionClosed, got \(result.outcome)")
            return
        }
    }

    @Test func withResendingOffEvenOurServerGetsNothingAgain() async throws {
        let result = try await resume(base.client(resendsOnResume: false), replying: ReconnectLifecycleTests.resumedByOurServer)
        #expect(result.capabilities == [.dedupe, .replay])
        #expect(result.next["method"] == "after")
        guard case .failure(RPCError.connectionClosed) = result.outcome else {
            Issue.record("expected connectionClosed, got \(result.outcome)")
            return
        }
    }

    @Test func theStockKurentoProfileWaits15SecondsRetriesNothingAndResendsNothing() {
        let profile = JSONRPCClient.Configuration.stockKurento
        #expect(profile.requestTimeout == .seconds(15))
        #expect(profile.retries == 0)
        #expect(!profile.resendsOnResume)
    }

    @Test func aCallMadeWhileReconnectingIntoAFreshSessionFailsOnceAndNeverReachesTheServer() async throws {
        // Given a client whose connection dropped, with a call made while it reconnects
        let client = base.client()
        let log = StateLog(client)
        let first = try await base.connectWithSession(client)
        await first.close(code: 1006, reason: "network")
        try await log.wait(for: "reconnecting") { $0 == .reconnecting(attempt: 1) }
        let queued = Task { try await client.call("publishVideo") }
        try await waitUntil("the call to wait for the connection") { client.pendingRequestIDs.count == 1 }

        // When the server no longer knows the session
        try await advance(base.clock, by: .milliseconds(300), whenTimersExceed: 1)
        let second = try await base.transport.nextPeer()
        let connect = try await second.receive()
        try await second.send(["jsonrpc": "2.0", "id": connect["id"]!,
                               "error": ["code": 40007, "message": "reconnection error"]])

        // Then the call fails, and the fresh session's first message is the next call, not the failed one
        await #expect(throws: RPCError.self) {
            try await withDeadline(.seconds(10), "the queued call to fail") { try await queued.value }
        }
        let after = Task { try await client.call("after") }
        let next = try await second.receive()
        #expect(next["method"] == "after")
        if next["method"] != "after" { after.cancel() }
        try await second.reply(to: next, ["sessionId": "S2"])
        _ = try? await withDeadline(.seconds(10), "the next call") { try await after.value }
    }
}
