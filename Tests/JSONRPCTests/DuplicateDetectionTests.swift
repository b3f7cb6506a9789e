@testable import JSONRPC
import SignalingSupport
import Testing
import TestSupport

/// A duplicate is the same request, not just the same id: same session, same id and same content (method and
/// params). Everything else runs its handler.
@Suite struct DuplicateDetectionTests {
    private func request(_ method: String, id: String, params: String? = nil) -> String {
        #"{"jsonrpc":"2.0","method":"\#(method)","id":\#(id)"# + (params.map { #","params":\#($0)"# } ?? "") + "}"
    }

    /// A plain server whose `count` handler returns how many times any `count` ran, and whose `echo` echoes.
    private func countingServer() -> (JSONRPCServer, Counter) {
        let server = JSONRPCServer(configuration: .init(conventions: .plain))
        let runs = Counter()
        let numbers = LockedValue(0)
        server.register("count") { _, _ in
            runs.increment()
            return .int(numbers.withLock { n in n += 1; return n })  // each run its own number, also when concurrent
        }
        server.register("echo") { params, _ in params }
        return (server, runs)
    }

    @Test(arguments: Link.allCases)
    func theSameIdWithOtherContentIsANewRequestAndReplacesWhatTheIdMeant(over link: Link) async throws {
        let (server, runs) = countingServer()
        try await link.withRawPeer(to: server) { peer async throws in
            // Given id 1 answered once, and answered again from the cache when repeated identically
            #expect(try await peer.exchange(request("count", id: "1", params: "[1]"))["result"] == 1)
            #expect(try await peer.exchange(request("count", id: "1", params: "[1]"))["result"] == 1)

            // When id 1 comes with other params, then with another method
            #expect(try await peer.exchange(request("count", id: "1", params: "[2]"))["result"] == 2)
            #expect(try await peer.exchange(request("echo", id: "1", params: "[2]"))["result"] == [2])

            // Then each ran its handler; the last one is what id 1 means now (a retry of it is answered from the
            // cache), and the first content, replaced, runs again
            #expect(try await peer.exchange(request("echo", id: "1", params: "[2]"))["result"] == [2])
            #expect(try await peer.exchange(request("count", id: "1", params: "[1]"))["result"] == 3)
            #expect(runs.count == 3)
        }
    }

    @Test(arguments: Link.allCases)
    func aRetryWhoseParamsWereReSerializedIsStillARetry(over link: Link) async throws {
        let (server, runs) = countingServer()
        try await link.withRawPeer(to: server) { peer async throws in
            // Given a request with object params
            let first = try await peer.exchange(request("count", id: #""a""#, params: #"{"x":1,"y":[true,"\u00e9"]}"#))
            #expect(first["result"] == 1)

            // When it is re-sent with other key order, spacing and escapes
            let retry = try await peer.exchange(request("count", id: #""a""#, params: #"{ "y" : [ true, "é" ], "x" : 1 }"#))

            // Then it is the same request: the cached response, no second run
            #expect(retry == first)
            #expect(runs.count == 1)

            // And a number written another way (1.0 for 1) is other content
            #expect(try await peer.exchange(request("count", id: #""a""#, params: #"{"x":1.0,"y":[true,"é"]}"#))["result"] == 2)
        }
    }

    @Test(arguments: Link.allCases)
    func aRetryAttachesToItsRunEvenWhenOtherContentReusedTheIdMeanwhile(over link: Link) async throws {
        // Given a `slow` handler that waits at a gate
        let server = JSONRPCServer(configuration: .init(conventions: .plain))
        let slowRuns = Counter(), gate = Gate()
        server.register("slow") { _, _ in
            slowRuns.increment()
            await gate.wait()
            return "slow done"
        }
        server.register("echo") { params, _ in params }
        try await link.withRawPeer(to: server) { peer async throws in
            // When slow(5) runs, its retry arrives, and echo reuses id 5 while slow still runs
            try await peer.send(request("slow", id: "5"))
            try await peer.send(request("slow", id: "5"))
            let echo = try await peer.exchange(request("echo", id: "5", params: #"["new"]"#))

            // Then echo ran and answered at once
            #expect(echo == ["jsonrpc": "2.0", "id": 5, "result": ["new"]])

            // And both copies of slow get slow's one response when it finishes
            gate.open()
            let first = try await peer.receive(), second = try await peer.receive()
            #expect(first == ["jsonrpc": "2.0", "id": 5, "result": "slow done"])
            #expect(second == first)
            #expect(slowRuns.count == 1)

            // And id 5 now means echo (replaced): its retry comes from the cache
            #expect(try await peer.exchange(request("echo", id: "5", params: #"["new"]"#)) == echo)
        }
    }

    @Test(arguments: Link.allCases)
    func eachRequestOfABatchGetsItsOwnResponseEvenWhenIdsRepeat(over link: Link) async throws {
        let (server, runs) = countingServer()
        server.registerSpecificationExamples()
        try await link.withRawPeer(to: server) { peer async throws in
            // Given a batch: two subtract requests that share id 7
            let subtracts = #"[{"jsonrpc":"2.0","id":7,"method":"subtract","params":[42,23]},"#
                + #"{"jsonrpc":"2.0","id":7,"method":"subtract","params":[23,42]}]"#

            // Then each gets its own answer, in request order
            let expected: JSONValue = [["jsonrpc": "2.0", "id": 7, "result": 19], ["jsonrpc": "2.0", "id": 7, "result": -19]]
            #expect(try await peer.exchange(subtracts) == expected)

            // When a batch holds the same request twice (same id, same content)
            let twice = "[" + request("count", id: "8") + "," + request("count", id: "8") + "]"
            let counted = try await peer.exchange(twice)

            // Then both ran their handler and got their own response
            #expect(sameElements(counted, [["jsonrpc": "2.0", "id": 8, "result": 1], ["jsonrpc": "2.0", "id": 8, "result": 2]]))
            #expect(runs.count == 2)

            // When both batches are re-sent whole
            // Then each entry is a retry of its counterpart: the same responses, no handler runs again
            #expect(try await peer.exchange(subtracts) == expected)
            #expect(try await peer.exchange(twice) == counted)
            #expect(runs.count == 2)

            // And a single copy of one of the batch's entries is a retry of it
            #expect(try await peer.exchange(request("subtract", id: "7", params: "[23,42]"))["result"] == -19)
        }
    }

    @Test(arguments: Link.allCases)
    func anyJSONNumberIsAnIdAndComesBackAsTheSameText(over link: Link) async throws {
        let (server, _) = countingServer()
        try await link.withRawPeer(to: server) { peer async throws in
            // Then every number comes back exactly as it was written
            let numbers = ["0", "7", "-3", "1.5", "-0", "1e3", "1E+3", "-2.5e-7", "9007199254740993",
                           "18446744073709551616", "-123456789012345678901234567890", "1e400", "0.10"]
            for number in numbers {
                let text = try await peer.receiveTextAfter(request("echo", id: number, params: "[1]"))
                let reply = try await peer.receiveTextAfter(request("echo", id: number, params: "[2]"))
                #expect(text.contains(#""id":\#(number),"#) && text.contains(#""result":[1]"#), "\(number): \(text)")
                #expect(reply.contains(#""id":\#(number),"#), "\(number): \(reply)")
                #expect(reply.contains(#""result":[2]"#), "\(number): \(reply)")
            }

            // And strings and null keep working
            #expect(try await peer.receiveTextAfter(request("echo", id: #""x\"y""#, params: "[]")).contains(#""id":"x\"y""#))
            #expect(try await peer.exchange(request("echo", id: "null", params: "[]"))["id"] == .null)

            // And objects, arrays and Booleans are no ids: -32600 with id null
            for bad in [#"{"n":1}"#, "[1]", "true", "false"] {
                let reply = try await peer.exchange(request("echo", id: bad, params: "[]"))
                #expect(reply == ["jsonrpc": "2.0", "id": nil, "error": ["code": -32600, "message": "Invalid Request"]],
                        "\(bad): \(reply.jsonText)")
            }
        }
    }

    @Test func numberTextIdsAreTheirOwnIdsAndOnlyValidNumbersBecomeIds() {
        #expect(RequestID(numberText: "12") == .number(12))
        #expect(RequestID(numberText: "-0") == .numberText("-0"))
        #expect(RequestID(numberText: "1e3") == .numberText("1e3"))
        #expect(RequestID(numberText: "1e3") != RequestID(numberText: "1000"))
        #expect(RequestID(numberText: "9223372036854775808") == .numberText("9223372036854775808"))
        for invalid in ["", "-", "01", "1.", ".5", "1e", "+1", "1 ", "0x10", "NaN"] {
            #expect(RequestID(numberText: invalid) == nil, "\(invalid)")
        }
        #expect(RPCResponse.result(1, id: .numberText("1.50")).jsonText == #"{"jsonrpc":"2.0","id":1.50,"result":1}"#)
    }

    @Test func reusingOneIdWithNewContentKeepsOneEntryAndRetriesStayBounded() async throws {
        // Given a server remembering at most 3 responses per session
        let clock = ManualClock()
        let server = JSONRPCServer(configuration: .init(conventions: .plain, maxRememberedResponses: 3, clock: clock))
        server.register("echo") { params, _ in params }
        let peer = RawPeer.connected(to: server)

        // When one id is used for 200 different requests, then 200 ids once each
        for n in 0..<200 { _ = try await peer.exchange(request("echo", id: "1", params: "[\(n)]")) }
        let session = try #require(server.sessions.withLock { $0.values.first })
        #expect(session.responses.count == 1)
        for n in 0..<200 { _ = try await peer.exchange(request("echo", id: "\(n + 2)", params: "[\(n)]")) }

        // Then the cache holds no more than its bound
        #expect(session.responses.count == 3)
    }
}

extension RawPeer {
    /// Sends `text` and returns the raw text of the reply (to check how numbers were written).
    func receiveTextAfter(_ text: String) async throws -> String {
        try await send(text)
        return try await receiveText()
    }
}
