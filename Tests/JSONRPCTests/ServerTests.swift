import JSONRPC
import SignalingSupport
import TestSupport
import Testing

@Suite struct ServerTests {
    private func request(_ method: String, id: Int, params: String? = nil) -> String {
        #"{"jsonrpc":"2.0","method":"\#(method)","id":\#(id)"# + (params.map { #","params":\#($0)"# } ?? "") + "}"
    }

    @Test(arguments: Link.allCases)
    func duplicateOfRunningRequestAttachesToThatRunAndDuplicateOfFinishedGetsCachedResponse(over link: Link) async throws {
        // Given a server whose `slow` handler counts its runs and waits at a gate
        let server = JSONRPCServer(configuration: .init(conventions: .plain))
        let runs = Counter(), gate = Gate()
        server.register("slow") { _, _ in
            runs.increment()
            await gate.wait()
            return .int(runs.count)
        }
        server.register("echo") { params, _ in params }
        try await link.withRawPeer(to: server) { peer in
            // When the same request arrives twice while it runs (the echo proves both copies were read)
            try await peer.send(request("slow", id: 7))
            try await peer.send(request("slow", id: 7))
            #expect(try await peer.exchange(request("echo", id: 8, params: "[1]"))["id"] == 8)
            gate.open()

            // Then both copies get the one run's response
            let first = try await peer.receive(), second = try await peer.receive()
            #expect(first == ["jsonrpc": "2.0", "result": 1, "id": 7])
            #expect(second == first)

            // And a copy arriving after it finished gets the cached response, without running again
            #expect(try await peer.exchange(request("slow", id: 7)) == first)
            #expect(runs.count == 1)
        }
    }

    @Test(arguments: Link.allCases)
    func closeAfterReplyInsideABatchClosesOnceTheBatchReplyIsOut(over link: Link) async throws {
        // Given a handler that asks for the connection to close after its reply (as Room's leaveRoom does)
        let server = JSONRPCServer(configuration: .init(conventions: .plain))
        server.register("bye") { _, context in
            if let id = context.id { context.session.closeAfterReply(to: id, code: 4000, reason: "bye") }
            return "bye"
        }
        server.register("echo") { params, _ in params }
        try await link.withRawPeer(to: server) { peer in
            // When it is called inside a batch
            let reply = try await peer.exchange("[" + request("bye", id: 1) + "," + request("echo", id: 2, params: "[2]") + "]")

            // Then the whole batch is answered first, then the connection closes with the code asked for
            #expect(reply == [["jsonrpc": "2.0", "id": 1, "result": "bye"], ["jsonrpc": "2.0", "id": 2, "result": [2]]])
            await #expect { _ = try await peer.receiveText() } throws: { ($0 as? ConnectionEnd)?.code == 4000 }
        }
    }

    @Test(arguments: Link.allCases)
    func malformedAndTooDeepInputGetTheRightCodesAndTheServerKeepsServing(over link: Link) async throws {
        // Given a plain server
        func nested(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
        let parseError: JSONValue = ["jsonrpc": "2.0", "error": ["code": -32700, "message": "Parse error"], "id": nil]
        let invalidRequest: JSONValue = ["jsonrpc": "2.0", "error": ["code": -32600, "message": "Invalid Request"], "id": nil]
        try await link.withRawPeer(to: .specificationExamples(conventions: .plain)) { peer in
            // Then malformed JSON, 129 levels and 100 000 levels get -32700; JSON that is no request object
            // gets -32600
            #expect(try await peer.exchange("{bad") == parseError)
            #expect(try await peer.exchange(nested(129)) == parseError)
            #expect(try await peer.exchange(String(repeating: "[", count: 100_000)) == parseError)
            #expect(try await peer.exchange(nested(128)) == [invalidRequest])  // a batch of one non-object
            #expect(try await peer.exchange(#""just a string""#) == invalidRequest)

            // And a request nested to exactly 128 levels is served, one level more is not
            let params127 = nested(127)
            let reply = try await peer.exchange(request("echo", id: 1, params: params127))
            #expect(reply["result"] == (try JSONValue(parsing: params127)))
            #expect(try await peer.exchange(request("echo", id: 2, params: nested(128))) == parseError)

            // And the server still answers
            #expect(try await peer.exchange(request("sum", id: 3, params: "[1,2]"))["result"] == 3)
        }
    }

    @Test func builtInsAnswerExactlyAsKurentoDoes() async throws {
        // Given a Kurento-convention server and a client connection
        let server = JSONRPCServer()
        let peer = RawPeer.connected(to: server)

        // Then ping, connect and closeSession answer with the exact replies of
        // docs/wire-protocol.md#kurento-conventions
        #expect(try await peer.exchange(request("ping", id: 0, params: #"{"interval":3000}"#))
            == ["jsonrpc": "2.0", "id": 0, "result": ["value": "pong"]])
        let connected = try await peer.exchange(request("connect", id: 1))
        let sessionId = try #require(connected["result"]?["sessionId"]?.stringValue)
        #expect(connected == ["jsonrpc": "2.0", "id": 1,
                              "result": ["value": "OK", "sessionId": .string(sessionId), "capabilities": ["dedupe"]]])
        #expect(sessionId.count == 32)  // 128 bits of CSPRNG, hex
        #expect(try await peer.exchange(request("ping", id: 2, params: #"{"sessionId":"\#(sessionId)"}"#))
            == ["jsonrpc": "2.0", "id": 2, "result": ["value": "pong", "sessionId": .string(sessionId)]])
        #expect(try await peer.exchange(request("connect", id: 3, params: #"{"sessionId":"nope"}"#))
            == ["jsonrpc": "2.0", "id": 3, "error": ["code": 40007, "message": "reconnection error"]])
        #expect(try await peer.exchange(request("closeSession", id: 4)) == ["jsonrpc": "2.0", "id": 4, "result": "bye"])

        // And closeSession ends the session and closes the connection
        await #expect(throws: ConnectionEnd.self) { _ = try await peer.receiveText() }
        #expect(server.session(id: sessionId) == nil)
    }

    @Test func connectWithKnownSessionIdResumesItAndClosesTheOldSocketWith4409() async throws {
        // Given a session on a first connection
        let server = JSONRPCServer()
        let first = RawPeer.connected(to: server)
        let sessionId = try #require(try await first.exchange(request("connect", id: 1))["result"]?["sessionId"]?.stringValue)

        // When a second connection connects with that session id (a client that counts what it read)
        let second = RawPeer.connected(to: server)
        let resumed = try await second.exchange(request("connect", id: 1, params: #"{"sessionId":"\#(sessionId)","received":0}"#))

        // Then it resumes the session, and the old socket is closed with 4409
        #expect(resumed == ["jsonrpc": "2.0", "id": 1, "result": ["value": "reconnection successful", "sessionId": .string(sessionId),
                                                                 "capabilities": ["dedupe", "replay"]]])
        await #expect { _ = try await first.receiveText() } throws: { ($0 as? ConnectionEnd)?.code == 4409 }
        #expect(server.sessionCount == 1)
    }

    @Test func sessionOutlivesItsConnectionForTheReconnectionWindowOnly() async throws {
        // Given a session whose connection dropped, on a manual clock
        let clock = ManualClock()
        let server = JSONRPCServer(configuration: .init(reconnectionWindow: .seconds(10), clock: clock))
        let (near, far) = LocalMessageConnection.pair()
        let served = Task { await server.serve(far) }
        let peer = RawPeer(connection: near)
        let sessionId = try #require(try await peer.exchange(request("connect", id: 1))["result"]?["sessionId"]?.stringValue)
        await near.close(code: 1006, reason: "dropped")
        await served.value

        // Then it is kept just short of the window, and forgotten at its end
        clock.advance(by: .seconds(10) - .milliseconds(1))
        #expect(server.session(id: sessionId) != nil)
        clock.advance(by: .milliseconds(1))
        #expect(server.session(id: sessionId) == nil)
    }

    @Test func serverToClientRequestTimesOutOnTheClock() async throws {
        // Given a server method that asks the client something the client never answers
        let clock = ManualClock()
        let server = JSONRPCServer(configuration: .init(conventions: .plain, requestTimeout: .seconds(2), clock: clock))
        server.register("ask") { _, context in
            do {
                return try await context.session.call("question")
            } catch let error as RPCError {
                return .string("\(error == .timeout(method: "question", attempts: 1))")
            }
        }
        let peer = RawPeer.connected(to: server)

        // When the client calls it and ignores the server's question for the timeout
        try await peer.send(request("ask", id: 1))
        let question = try await peer.receive()
        #expect(question["method"] == "question")
        clock.advance(by: .seconds(2))

        // Then the server's call failed with a timeout after one attempt
        #expect(try await peer.receive() == ["jsonrpc": "2.0", "id": 1, "result": "true"])
    }

    @Test func handlerErrorsFollowTheConventions() async throws {
        struct Boom: Error, CustomStringConvertible { var description: String { "it broke" } }
        let kurento = JSONRPCServer(), plain = JSONRPCServer(configuration: .init(conventions: .plain))
        for server in [kurento, plain] {
            server.register("boom") { _, _ in throw Boom() }
            server.register("typed") { (params: [String: Int], _: RPCRequestContext) in params["a"] ?? 0 }
        }
        let k = RawPeer.connected(to: kurento), p = RawPeer.connected(to: plain)
        #expect(try await k.exchange(request("boom", id: 1))["error"] == ["code": -1, "message": "Boom:it broke"])
        #expect(try await p.exchange(request("boom", id: 1))["error"] == ["code": -32603, "message": "Internal error"])
        let invalid = try await p.exchange(request("typed", id: 2, params: #"{"a":"x"}"#))
        #expect(invalid["error"]?["code"] == -32602)
        #expect(invalid["error"]?["data"]?.stringValue?.contains("'a'") == true)
        #expect(try await p.exchange(request("typed", id: 3, params: #"{"a":5}"#))["result"] == 5)
    }
}

@Suite struct DuplicateRetentionTests {
    private func slowCall(_ id: Int) -> String { #"{"jsonrpc":"2.0","method":"count","id":\#(id)}"# }

    @Test func finishedResponsesAreForgottenAfterTheRetentionAndBeyondThePerSessionBound() async throws {
        // Given a server remembering responses for 30 s, at most 2 per session, on a manual clock
        let clock = ManualClock()
        let server = JSONRPCServer(configuration: .init(conventions: .plain, duplicateRetention: .seconds(30),
                                                         maxRememberedResponses: 2, clock: clock))
        let runs = Counter()
        server.register("count") { _, _ in
            runs.increment()
            return .int(runs.count)
        }
        let peer = RawPeer.connected(to: server)

        // When id 1 is repeated just inside the retention, then after it
        #expect(try await peer.exchange(slowCall(1))["result"] == 1)
        clock.advance(by: .seconds(30) - .milliseconds(1))
        #expect(try await peer.exchange(slowCall(1))["result"] == 1)
        clock.advance(by: .milliseconds(1))
        #expect(try await peer.exchange(slowCall(1))["result"] == 2)

        // And when ids 2 and 3 push id 1 out of the two-entry bound
        #expect(try await peer.exchange(slowCall(2))["result"] == 3)
        #expect(try await peer.exchange(slowCall(3))["result"] == 4)
        #expect(try await peer.exchange(slowCall(1))["result"] == 5)

        // Then the handler ran again exactly when its response had been forgotten
        #expect(runs.count == 5)
    }
}

@Suite struct ServeLifecycleTests {
    @Test func cancellingTheServingTaskClosesTheConnection() async throws {
        // Given a connection being served
        let (near, far) = LocalMessageConnection.pair()
        let serving = Task { await JSONRPCServer.specificationExamples().serve(far) }
        let peer = RawPeer(connection: near)
        #expect(try await peer.exchange(#"{"jsonrpc":"2.0","method":"sum","params":[1],"id":1}"#)["result"] == 1)

        // When the serving task is cancelled
        serving.cancel()
        await serving.value

        // Then the peer sees the connection end with 1001
        await #expect { _ = try await peer.receiveText() } throws: { ($0 as? ConnectionEnd)?.code == 1001 }
    }
}
