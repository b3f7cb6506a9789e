import JSONRPC
import Testing

/// One request/reply pair of JSON-RPC 2.0 specification §7 (jsonrpc.org/specification).
struct SpecificationExample: Sendable, CustomStringConvertible {
    let name: String
    let request: String
    /// `nil`: no reply at all.
    let reply: String?
    var description: String { name }

    static let all: [SpecificationExample] = [
        .init(name: "positional params", request: #"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#,
              reply: #"{"jsonrpc": "2.0", "result": 19, "id": 1}"#),
        .init(name: "positional params reversed", request: #"{"jsonrpc": "2.0", "method": "subtract", "params": [23, 42], "id": 2}"#,
              reply: #"{"jsonrpc": "2.0", "result": -19, "id": 2}"#),
        .init(name: "named params", request: #"{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}"#,
              reply: #"{"jsonrpc": "2.0", "result": 19, "id": 3}"#),
        .init(name: "named params reordered", request: #"{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}"#,
              reply: #"{"jsonrpc": "2.0", "result": 19, "id": 4}"#),
        .init(name: "notification", request: #"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#, reply: nil),
        .init(name: "notification of unknown method", request: #"{"jsonrpc": "2.0", "method": "foobar"}"#, reply: nil),
        .init(name: "non-existent method", request: #"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#,
              reply: #"{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "1"}"#),
        .init(name: "invalid JSON", request: #"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#,
              reply: #"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#),
        .init(name: "invalid request object", request: #"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#,
              reply: #"{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}"#),
        .init(name: "batch, invalid JSON",
              request: #"[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},{"jsonrpc": "2.0", "method"]"#,
              reply: #"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#),
        .init(name: "empty batch", request: "[]",
              reply: #"{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}"#),
        .init(name: "invalid batch of one", request: "[1]",
              reply: #"[{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}]"#),
        .init(name: "invalid batch", request: "[1,2,3]",
              reply: #"""
              [{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
               {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
               {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}]
              """#),
        .init(name: "mixed batch",
              request: #"""
              [{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
               {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
               {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
               {"foo": "boo"},
               {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
               {"jsonrpc": "2.0", "method": "get_data", "id": "9"}]
              """#,
              reply: #"""
              [{"jsonrpc": "2.0", "result": 7, "id": "1"},
               {"jsonrpc": "2.0", "result": 19, "id": "2"},
               {"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null},
               {"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "5"},
               {"jsonrpc": "2.0", "result": ["hello", 5], "id": "9"}]
              """#),
        .init(name: "batch of notifications",
              request: #"[{"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]},{"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}]"#,
              reply: nil),
    ]
}

@Suite struct SpecificationExamplesTests {
    @Test(arguments: SpecificationExample.all, Link.allCases)
    func specificationExampleGetsExactlyTheSpecifiedReply(_ example: SpecificationExample, over link: Link) async throws {
        // Given a plain JSON-RPC server with the specification's methods
        try await link.withRawPeer(to: .specificationExamples(conventions: .plain)) { peer in
            // When the example request is sent, followed by a marker request on the same connection
            try await peer.send(example.request)
            let marker = #"{"jsonrpc":"2.0","method":"echo","params":["marker"],"id":"marker"}"#
            try await peer.send(marker)

            // Then exactly the specified reply arrives (nothing, for notifications) besides the marker's.
            // Handlers run concurrently, so the two replies may come in either order.
            let markerReply: JSONValue = ["jsonrpc": "2.0", "result": ["marker"], "id": "marker"]
            var replies = [try await peer.receive()]
            if example.reply != nil { replies.append(try await peer.receive()) }
            // (No closure inside #expect here: in a closure, Swift 6.3.1 then runs the wrong filter closure below.)
            let markers = replies.filter { reply in reply == markerReply }
            let others = replies.filter { reply in reply != markerReply }
            #expect(markers.count == 1, "got \(replies)")
            if let expected = example.reply {
                let expectedJSON = try JSONValue(parsing: expected)
                #expect(others.count == 1 && sameElements(others[0], expectedJSON), "got \(others)")
            } else {
                #expect(others.isEmpty, "got \(others)")
            }
        }
    }
}
