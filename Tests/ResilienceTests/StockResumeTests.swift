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
}
