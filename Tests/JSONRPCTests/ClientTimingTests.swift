import JSONRPC
import SignalingSupport
import TestSupport
import Testing

/// Timeouts, retries and cancellation on a ManualClock: no waiting on real time (docs/architecture.md#time).
@Suite struct ClientTimingTests {
    /// A client on a manual clock talking to a scripted raw peer.
    private func makeClient(timeout: Duration = .seconds(5), retries: Int = 1)
        -> (JSONRPCClient, RawPeer, ManualClock)
    {
        let clock = ManualClock()
        let (near, far) = LocalMessageConnection.pair()
        let client = JSONRPCClient(transport: FixedTransport(connection: near),
                                   configuration: .init(requestTimeout: timeout, retries: retries, heartbeat: .off, clock: clock))
        return (client, RawPeer(connection: far), clock)
    }

    /// Completions recorded by the completion-closure face.
    private final class Completions: Sendable {
        private let results = LockedValue<[Result<JSONValue, RPCError>]>([])
        func record(_ result: Result<JSONValue, RPCError>) { results.withLock { $0.append(result) } }
        var all: [Result<JSONValue, RPCError>] { results.withLock { $0 } }
    }

    /// Sends a notification from the peer and waits until the client has published it: everything the peer sent
    /// before it has been handled by then.
    private func flush(_ client: JSONRPCClient, _ peer: RawPeer) async throws {
        let notifications = client.notifications
        try await peer.send(#"{"jsonrpc":"2.0","method":"marker"}"#)
        _ = try await withDeadline(.seconds(10), "the marker") {
            for try await note in notifications where note.method == "marker" { return true }
            return false
        }
    }

    @Test func firstSendIgnoredAndRetryAnsweredGivesOneCompletion() async throws {
        // Given a client with timeout 5 s and 1 retry
        let (client, peer, clock) = makeClient()
        try await client.connect()
        let completions = Completions()

        // When the peer ignores the first send and answers the retry
        client.call("echo", params: ["x"]) { completions.record($0) }
        let first = try await peer.receiveText()
        clock.advance(by: .seconds(5))
        let retry = try await peer.receiveText()
        #expect(retry == first)  // the same id, the same text
        let id = try JSONValue(parsing: retry)["id"]!
        try await peer.send(RPCResponse(id: RequestID(json: id)!, outcome: .success("answered")).jsonText)
        try await waitUntil("the completion") { completions.all.count == 1 }

        // Then a late duplicate of the response and the end of every timer change nothing
        try await peer.send(RPCResponse(id: RequestID(json: id)!, outcome: .success("duplicate")).jsonText)
        clock.advance(by: .seconds(60))
        try await flush(client, peer)
        #expect(completions.all.count == 1)
        #expect(try completions.all.first?.get() == "answered")
        #expect(clock.pendingTimers == 0)
    }

    @Test func unansweredCallTimesOutAfterTimeoutTimesThreeWithTwoAttempts() async throws {
        // Given a client with timeout 5 s and 1 retry, and a peer that never answers
        let (client, peer, clock) = makeClient()
        try await client.connect()
        let call = Task { try await client.call("never") }
        _ = try await peer.receiveText()

        // When time passes: the retry at 5 s, then just short of 5 × (1 + 2) = 15 s
        clock.advance(by: .seconds(5))
        _ = try await peer.receiveText()
        clock.advance(by: .seconds(10) - .milliseconds(1))
        #expect(client.pendingRequestIDs.count == 1)

        // Then the call fails exactly at t = 15 s with two attempts
        clock.advance(by: .milliseconds(1))
        #expect(client.pendingRequestIDs.isEmpty)
        #expect(clock.now.offset == .seconds(15))
        await #expect(throws: RPCError.timeout(method: "never", attempts: 2)) { try await call.value }
    }

    @Test func cancelCompletesExactlyOnce() async throws {
        // Given a pending call
        let (client, peer, clock) = makeClient()
        try await client.connect()
        let completions = Completions()
        let id = client.call("slow") { completions.record($0) }
        _ = try await peer.receiveText()

        // When it is cancelled twice and its response arrives anyway
        #expect(client.cancelRequest(id))
        #expect(!client.cancelRequest(id))
        try await peer.send(RPCResponse(id: id, outcome: .success("late")).jsonText)
        clock.advance(by: .seconds(60))
        try await flush(client, peer)

        // Then it completed once, with cancelled
        try await waitUntil("the completion") { completions.all.count == 1 }
        #expect(completions.all.count == 1)
        #expect(throws: RPCError.cancelled) { try completions.all[0].get() }
    }

    @Test func taskCancellationAndCancelAllCompleteEachCallOnceWithCancelled() async throws {
        // Given three pending calls, one of them awaited by a task
        let (client, peer, _) = makeClient()
        try await client.connect()
        let completions = Completions()
        let task = Task { try await client.call("a") }
        client.call("b") { completions.record($0) }
        client.call("c") { completions.record($0) }
        for _ in 0..<3 { _ = try await peer.receiveText() }

        // When the task is cancelled and then all requests are cancelled
        task.cancel()
        await #expect(throws: RPCError.cancelled) { try await task.value }
        #expect(client.cancelAllRequests() == 2)

        // Then every call completed once, with cancelled
        try await waitUntil("both completions") { completions.all.count == 2 }
        for result in completions.all { #expect(throws: RPCError.cancelled) { try result.get() } }
        #expect(client.pendingRequestIDs.isEmpty)
    }
}
