import JSONRPC
import SignalingSupport
import TestSupport
import Testing

/// The typed face of the client (issue 34, item 6): per-call retries, ``EmptyResult`` and typed notification streams,
/// against a scripted raw peer on a ManualClock (docs/architecture.md#time).
@Suite struct TypedClientAPITests {
    private func makeClient(retries: Int) -> (JSONRPCClient, RawPeer, ManualClock) {
        let clock = ManualClock()
        let (near, far) = LocalMessageConnection.pair()
        let client = JSONRPCClient(transport: FixedTransport(connection: near), configuration: .init(
            requestTimeout: .seconds(5), retries: retries, reconnect: .off, heartbeat: .off, clock: clock))
        return (client, RawPeer(connection: far), clock)
    }

    private func answer(_ peer: RawPeer, _ request: String, with result: JSONValue) async throws {
        let json = try #require(try JSONValue(parsing: request)["id"])
        let id = try #require(RequestID(json: json))
        try await peer.send(RPCResponse(id: id, outcome: .success(result)).jsonText)
    }

    private struct Sum: Codable, Sendable { var a: Int; var b: Int }

    @Test func perCallRetriesResendTheSameIdAndCompleteOnce() async throws {
        // Given a client whose configuration never retries
        let (client, peer, clock) = makeClient(retries: 0)
        try await client.connect()

        // When one typed call asks for 2 retries and the peer answers only the third send
        let call = Task { try await client.call("sum", params: Sum(a: 1, b: 2), as: Int.self, retries: 2) }
        let first = try await peer.receiveText()
        clock.advance(by: .seconds(5))
        let second = try await peer.receiveText()
        clock.advance(by: .seconds(10))
        let third = try await peer.receiveText()
        #expect(second == first)  // the same id and text: a server that dedupes runs it once
        #expect(third == first)
        try await answer(peer, third, with: 3)
        #expect(try await call.value == 3)

        // Then a late answer to an earlier send changes nothing, and once its deadline passes no timer is left
        // (the request table's one timer is not cancelled per call)
        try await answer(peer, first, with: 99)
        #expect(client.pendingRequestIDs.isEmpty)
        clock.advance(by: .seconds(60))
        #expect(clock.pendingTimers == 0)
    }

    @Test func perCallZeroRetriesOverridesTheConfiguration() async throws {
        // Given a client configured with 3 retries
        let (client, peer, clock) = makeClient(retries: 3)
        try await client.connect()

        // When an untyped call asks for none and the peer never answers
        let call = Task { try await client.call("once", params: ["x"], retries: 0) }
        _ = try await peer.receiveText()
        clock.advance(by: .seconds(5))

        // Then it fails at its first timeout, after one send
        await #expect(throws: RPCError.timeout(method: "once", attempts: 1)) { try await call.value }
        #expect(clock.pendingTimers == 0)
    }

    @Test func emptyResultAcceptsAnObjectOrNullAndRefusesAnythingElse() async throws {
        let (client, peer, _) = makeClient(retries: 0)
        try await client.connect()
        for accepted: JSONValue in [[:], ["sessionId": "s"], .null] {
            let call = Task { try await client.call("stop", params: Sum(a: 0, b: 0), as: EmptyResult.self) }
            try await answer(peer, try await peer.receiveText(), with: accepted)
            #expect(try await call.value == EmptyResult(), "\(accepted)")
        }
        let refused = Task { try await client.call("stop", as: EmptyResult.self) }
        try await answer(peer, try await peer.receiveText(), with: "not empty")
        await #expect(throws: RPCError.self) { try await refused.value }
        // It encodes as {} for a typed handler's empty result
        #expect(try JSONValue(encoding: EmptyResult()) == [:])
    }

    private struct Progress: Decodable, Sendable, Equatable { var percent: Int }

    @Test func typedNotificationsDecodeTheirMethodAndCountWhatDoesNotDecode() async throws {
        // Given a typed subscriber to `progress`
        let (client, peer, _) = makeClient(retries: 0)
        try await client.connect()
        let progress = client.notifications("progress", as: Progress.self)

        // When the peer sends progress, another method, a progress whose params do not decode, a Kurento-wrapped one
        for text in [#"{"jsonrpc":"2.0","method":"progress","params":{"percent":10}}"#,
                     #"{"jsonrpc":"2.0","method":"other","params":{"percent":11}}"#,
                     #"{"jsonrpc":"2.0","method":"progress","params":{"percent":"twelve"}}"#,
                     #"{"jsonrpc":"2.0","method":"progress","params":{"value":{"percent":13},"sessionId":"s"}}"#] {
            try await peer.send(text)
        }

        // Then it reads 10 and 13, in order; the one that did not decode was skipped and counted
        let read = try await withDeadline(.seconds(10), "two progress notifications") {
            var read: [Progress] = []
            for try await update in progress {
                read.append(update)
                if read.count == 2 { break }
            }
            return read
        }
        #expect(read == [Progress(percent: 10), Progress(percent: 13)])
        #expect(client.undecodableNotificationCount == 1)
    }
}
