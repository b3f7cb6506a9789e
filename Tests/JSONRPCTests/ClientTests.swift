import JSONRPC
import SignalingSupport
import TestSupport
import Testing

@Suite struct ClientTests {
    private func client(for server: JSONRPCServer) -> JSONRPCClient {
        JSONRPCClient(transport: LocalTransport.serving(server), configuration: .init(requestTimeout: .seconds(60)))
    }

    @Test(arguments: Link.allCases)
    func thousandConcurrentCallsCompleteOnceEachWithTheirOwnResults(over link: Link) async throws {
        // Given a client connected to a plain server with `echo`
        try await link.withClient(of: .specificationExamples(conventions: .plain)) { client in
            try await client.connect()

            // When 1,000 calls run concurrently
            let results = try await withDeadline(.seconds(60), "1,000 calls") {
                try await withThrowingTaskGroup(of: (Int, JSONValue).self) { group in
                    for i in 0..<1000 { group.addTask { (i, try await client.call("echo", params: ["n": .int(i)])) } }
                    var results: [Int: JSONValue] = [:]
                    for try await (i, result) in group {
                        #expect(results[i] == nil)
                        results[i] = result
                    }
                    return results
                }
            }

            // Then each got exactly its own result and nothing is left pending
            #expect(results.count == 1000)
            let matched = results.allSatisfy { $0.value == ["n": .int($0.key)] }  // no closure inside #expect here
            #expect(matched)
            #expect(client.pendingRequestIDs.isEmpty)
        }
    }

    @Test func droppedConnectionCompletesAllHundredPendingCallsWithConnectionClosed() async throws {
        // Given 100 calls in flight to a peer that never answers, without reconnect
        let (near, far) = LocalMessageConnection.pair()
        let client = JSONRPCClient(transport: FixedTransport(connection: near),
                                   configuration: .init(requestTimeout: .seconds(600), reconnect: .off))
        try await client.connect()
        let calls = Task { await outcomesOfHangingCalls(client, count: 100) }
        let peer = RawPeer(connection: far)
        for _ in 0..<100 { _ = try await peer.receiveText() }

        // When the connection drops
        let end = ConnectionEnd(code: 1006, reason: "dropped")
        await far.close(code: end.code, reason: end.reason)

        // Then all 100 complete with connectionClosed, at once
        let outcomes = try await withDeadline(.seconds(10), "100 completions") { await calls.value }
        #expect(outcomes.count == 100)
        for outcome in outcomes { #expect(throws: RPCError.connectionClosed(end)) { try outcome.get() } }
        #expect(client.connectionState == .disconnected(end))
    }

    @Test(arguments: Link.allCases)
    func serverRequestIsAnsweredByClientHandlerAndUnknownMethodGetsMethodNotFound(over link: Link) async throws {
        // Given a Kurento server whose methods ask the client something
        let server = JSONRPCServer()
        server.register("askClient") { _, context in try await context.session.call("double", params: [21]) }
        server.register("askUnknown") { _, context in
            do {
                _ = try await context.session.call("nope")
                return "unexpectedly answered"
            } catch let error as RPCError {
                return .int(error.remoteError?.code ?? 0)
            }
        }
        try await link.withClient(of: server) { client in
            client.handle("double") { params in .int((params?[0]?.intValue ?? 0) * 2) }

            // When the client calls them
            let answered = try await client.call("askClient")
            let unknown = try await client.call("askUnknown")

            // Then the handler's answer came back (Kurento-wrapped), and the unknown method got -32601
            #expect(answered == ["value": 42, "sessionId": .string(client.sessionId ?? "?")])
            #expect(answered.value == 42)
            #expect(unknown.value == -32601)
            #expect(client.sessionId?.count == 32)
        }
    }

    @Test func notificationsAreMulticastAndPublishedBeforeTheLaterResponse() async throws {
        // Given two subscribers and a server method that notifies three times before answering
        let server = JSONRPCServer(configuration: .init(conventions: .plain))
        server.register("chatty") { _, context in
            for i in 1...3 { try await context.session.notify("tick", params: [.int(i)]) }
            return "done"
        }
        let client = client(for: server)
        let first = client.notifications, second = client.notifications

        // When the call returns
        #expect(try await client.call("chatty") == "done")
        await client.close()

        // Then both subscribers already hold the three notifications, in wire order
        for subscriber in [first, second] {
            var ticks: [JSONValue?] = []
            for try await note in subscriber {
                ticks.append(note.params)
                if ticks.count == 3 { break }
            }
            #expect(ticks == [[1], [2], [3]])
        }
    }

    @Test func typedCallsEncodeParamsAndDecodeWrappedResults() async throws {
        struct Operands: Codable, Sendable { let minuend: Int; let subtrahend: Int }
        // Given a Kurento server (which wraps the non-object result as {"value", "sessionId"})
        let client = client(for: .specificationExamples(conventions: .kurento))

        // When calling with typed params and a typed result
        let difference: Int = try await client.call("subtract", params: Operands(minuend: 42, subtrahend: 23))
        let sum: Int = try await client.call("sum", params: [1, 2, 4])

        // Then the wrapped values decode directly
        #expect(difference == 19)
        #expect(sum == 7)
    }

    @Test func batchCallReturnsEachRequestsOutcomeInOrder() async throws {
        let client = client(for: .specificationExamples(conventions: .plain))
        let results = try await client.callBatch([
            .request("sum", params: [1, 2, 4]),
            .notification("notify_hello", params: [7]),
            .request("subtract", params: [42, 23]),
            .request("foo.get", params: ["name": "myself"]),
        ])
        #expect(results.count == 3)
        #expect(try results[0].get() == 7)
        #expect(try results[1].get() == 19)
        #expect(throws: RPCError.remote(.methodNotFound)) { try results[2].get() }
    }

    @Test func connectionStatesAreObservable() async throws {
        let client = client(for: .specificationExamples())
        let states = client.connectionStates
        try await client.connect()
        await client.close()
        var seen: [ConnectionState] = []
        for try await state in states {
            seen.append(state)
            if seen.count == 4 { break }
        }
        #expect(seen == [.disconnected(nil), .connecting, .connected, .disconnected(ConnectionEnd(code: 1000, reason: ""))])
    }
}

@Suite struct ClientConnectTests {
    @Test func concurrentConnectsShareOneAttempt() async throws {
        let transport = LocalTransport.serving(.specificationExamples())
        let client = JSONRPCClient(transport: transport)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<10 { group.addTask { try await client.connect() } }
            try await group.waitForAll()
        }
        #expect(transport.attempts == 1)
        #expect(client.isConnected)
    }

    /// A transport whose connect waits for `gate`, then hands out one end of an in-memory pair.
    struct GatedTransport: MessageTransport {
        let gate = Gate()
        let far = LockedValue<LocalMessageConnection?>(nil)
        func connect() async throws -> any MessageConnection {
            await gate.wait()
            let (near, far) = LocalMessageConnection.pair()
            self.far.withLock { $0 = far }
            return near
        }
    }

    @Test func aCloseWhileConnectingEndsTheConnectAndDisownsTheConnectionThatOpensLate() async throws {
        // Given a connect whose transport has not answered yet
        let transport = GatedTransport()
        let client = JSONRPCClient(transport: transport)
        let connecting = Task { try await client.connect() }
        try await waitUntil("connecting") { client.connectionState == .connecting }

        // When the user closes, and only then the transport opens the connection
        await client.close(code: 1000, reason: "changed my mind")
        transport.gate.open()

        // Then the connect fails with the close, the late connection is closed, and the client stays closed
        let bye = ConnectionEnd(code: 1000, reason: "changed my mind")
        await #expect(throws: RPCError.connectionClosed(bye)) { try await connecting.value }
        #expect(client.connectionState == .disconnected(bye))
        let far = try #require(transport.far.withLock { $0 })
        await #expect(throws: ConnectionEnd.self) { _ = try await withDeadline(.seconds(10), "the close") { try await far.receive() } }
    }

    @Test func refusedConnectFailsTheCallWithTheTransportsReason() async throws {
        let transport = LocalTransport.serving(.specificationExamples())
        transport.refusing = true
        let client = JSONRPCClient(transport: transport)
        let end = ConnectionEnd(code: 1006, reason: "connection refused")
        await #expect(throws: RPCError.connectionClosed(end)) { try await client.call("sum", params: [1]) }
        #expect(client.connectionState == .disconnected(end))
        #expect(client.pendingRequestIDs.isEmpty)
    }

    @Test func withoutAutoConnectACallOnADisconnectedClientFailsAtOnce() async throws {
        let transport = LocalTransport.serving(.specificationExamples())
        let client = JSONRPCClient(transport: transport, configuration: .init(autoConnect: false))
        await #expect(throws: RPCError.connectionClosed(nil)) { try await client.call("sum", params: [1]) }
        #expect(transport.attempts == 0)
    }
}
