import JSONRPC
import JSONRPCWebSocket
import TestSupport
import Testing

/// What only a real socket shows: drops, the transport's size limit, and the adapter's framing. The behaviours
/// that both links share (§7 examples, 1,000 calls, duplicates, malformed input, server→client requests) are
/// specified once, with a `Link` argument.
@Suite struct WebSocketIntegrationTests {
    @Test func shutdownWithHundredParkedHandlersCompletesAllHundredCallsWithConnectionClosed() async throws {
        // Given 100 calls whose handlers are all parked on the server (which lets 100 run per connection)
        let server = JSONRPCServer(configuration: .init(conventions: .plain, maxInFlightPerConnection: 100))
        let parked = Counter(), gate = Gate()
        server.register("hang") { _, _ in
            parked.increment()
            await gate.wait()
            return "too late"
        }
        let listener = try await server.listen(on: .init())
        let client = JSONRPCClient(url: listener.url, configuration: .init(requestTimeout: .seconds(600), reconnect: .off))
        try await client.connect()
        let calls = Task { await outcomesOfHangingCalls(client, count: 100) }
        try await waitUntil("100 parked handlers") { parked.count == 100 }

        // When the server shuts down, closing the connection with 1001 while the handlers are parked
        let shutdown = Task { await listener.shutdown() }
        let outcomes = try await withDeadline(.seconds(10), "100 completions") { await calls.value }

        // Then all 100 complete, once each, with connectionClosed and the server's close code and reason
        let end = ConnectionEnd(code: 1001, reason: "server shutting down")
        #expect(outcomes.count == 100)
        for outcome in outcomes { #expect(throws: RPCError.connectionClosed(end)) { try outcome.get() } }
        #expect(client.connectionState == .disconnected(end))
        #expect(client.pendingRequestIDs.isEmpty)
        gate.open()
        try await withDeadline(.seconds(10), "shutdown") { await shutdown.value }
    }

    @Test func messageAboveOneMebibyteClosesWith1009AndTheServerServesNewClients() async throws {
        // Given a plain server with the default limit of 1 MiB per message
        let limit = ConnectionLimits().maxMessageSize
        #expect(limit == 1 << 20)
        func request(id: Int, size: Int) -> String {
            let head = #"{"jsonrpc":"2.0","method":"update","id":\#(id),"params":[""#, tail = #""]}"#
            return head + String(repeating: "x", count: size - head.utf8.count - tail.utf8.count) + tail
        }
        let served: JSONValue = ["jsonrpc": "2.0", "result": nil, "id": 1]
        let end = try await withListener(.specificationExamples(conventions: .plain)) { listener in
            // Then a request of exactly 1 MiB is served
            let peer = try await RawPeer.connected(to: listener)
            let exact = try await peer.exchange(request(id: 1, size: limit))

            // And one byte more closes the connection with 1009 instead of getting an answer
            try await peer.send(request(id: 2, size: limit + 1))
            let end: ConnectionEnd?
            do {
                _ = try await peer.receiveText()
                end = nil
            } catch let error as ConnectionEnd {
                end = error
            }

            // And the server serves a new client afterwards
            let fresh = try await RawPeer.connected(to: listener)
            let sum = try await fresh.exchange(#"{"jsonrpc":"2.0","method":"sum","params":[1,2],"id":3}"#)
            await fresh.connection.close(code: 1000, reason: "")
            return (exact, end?.code, sum)
        }
        #expect(end.0 == served)
        #expect(end.1 == 1009)
        #expect(end.2 == ["jsonrpc": "2.0", "result": 3, "id": 3])
    }
}
