import Foundation
import TestSupport
import Testing

/// The JSON-RPC envelope as KMS's JsonRpcHandler writes it.
@Suite struct EnvelopeTests {
    @Test func malformedRequestsAreInvalidRequestWithANullIDAndNoData() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        let malformed = [
            #"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,  // a batch
            #"{"id":2,"method":"ping"}"#,  // no jsonrpc
            #"{"jsonrpc":"1.0","id":3,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":4}"#,  // no method
            #"{"jsonrpc":"2.0","id":[5],"method":"ping"}"#,  // an array id
            #""a string""#,
        ]
        for (index, text) in malformed.enumerated() {
            try await client.send(text: text)
            try await waitUntil("reply \(index)") { client.received.count == index + 1 }
        }
        for text in client.received {
            #expect(text == #"{"error":{"code":-32600,"message":"Invalid JSON-RPC request."},"id":null,"jsonrpc":"2.0"}"#)
        }
        #expect(kms.requestCounts.methods.isEmpty)
    }

    @Test func anUnknownMethodIsMethodNotFoundWithoutData() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        let reply = try await client.call("getMediaObjectByRef", ["object": "x"], id: 41)
        let error = try #require(reply["error"] as? RawKurentoClient.JSON)
        #expect(error["code"] as? Int == -32601)
        #expect(error["message"] as? String == "Method not found.")
        #expect(error["data"] == nil)
        #expect(reply["id"] as? Int == 41)
    }

    @Test func aNotificationRunsAndItsResultComesBackAsMinus32000Data() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        try await client.send(["jsonrpc": "2.0", "method": "create", "params": ["type": "MediaPipeline"]])
        let reply = try await client.first("the notification's error") { $0["error"] != nil }
        #expect(reply["id"] is NSNull)
        let error = try #require(reply["error"] as? RawKurentoClient.JSON)
        #expect(error["code"] as? Int == -32000)
        #expect(error["message"] as? String == "Ignoring response because of a notification request")
        let data = try #require(error["data"] as? RawKurentoClient.JSON)
        #expect(data["value"] as? String == kms.pipelines.first)
        #expect(data["sessionId"] is String)
        #expect(kms.liveObjectCount == 1)
    }

    @Test func repliesAreCompactWithKeysInAlphabeticalOrder() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        // A fresh socket has no session: the ping answers without one, and its interval is ignored.
        try await client.send(text: #"{"jsonrpc":"2.0","id":1000,"method":"ping","params":{"interval":5000}}"#)
        try await waitUntil("the pong") { client.received.count == 1 }
        #expect(client.received[0] == #"{"id":1000,"jsonrpc":"2.0","result":{"value":"pong"}}"#)
        let pipeline = try await client.create("MediaPipeline")
        let session = try #require(kms.sessions.first)
        // Once the socket has a session, it is injected: the ping now echoes it.
        try await client.send(text: #"{"jsonrpc":"2.0","id":"p","method":"ping"}"#)
        let pong = try await client.first("the second pong") { $0["id"] as? String == "p" }
        #expect((pong["result"] as? RawKurentoClient.JSON)?["sessionId"] as? String == session)
        #expect(client.received.last == #"{"id":"p","jsonrpc":"2.0","result":{"sessionId":"\#(session)","value":"pong"}}"#)
        // Object ids keep their slash unescaped.
        let endpoint = try await client.create("WebRtcEndpoint", ["mediaPipeline": pipeline])
        #expect(client.received.contains { $0.contains(#""value":"\#(endpoint)""#) })
    }

    @Test func refAndTransactionAreTheDoublesNotImplementedGap() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        for method in ["ref", "unref", "transaction"] {
            let error = try await client.error(method, ["object": "x", "sessionId": "s", "operations": []])
            #expect(error["code"] as? Int == 40006)
            #expect(error["message"] as? String == "not implemented by the double")
            #expect((error["data"] as? RawKurentoClient.JSON)?["type"] as? String == "NOT_IMPLEMENTED")
        }
    }

    @Test func missingTopLevelParamsAreJSONRPCErrors() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        // No params on a socket without session: -32602 with data type INVALID_PARAMS (SM7 requireParams).
        let noParams = try await client.error("create")
        #expect(noParams["code"] as? Int == -32602)
        #expect(noParams["message"] as? String == "'params' is required")
        #expect((noParams["data"] as? RawKurentoClient.JSON)?["type"] as? String == "INVALID_PARAMS")
        // A missing member: -32000 without data (JRU).
        let noType = try await client.error("create", ["constructorParams": [:]])
        #expect(noType["code"] as? Int == -32000)
        #expect(noType["message"] as? String == "'type' parameter is required")
        #expect(noType["data"] == nil)
        let badType = try await client.error("create", ["type": 3])
        #expect(badType["message"] as? String == "'type' parameter should be a string")
    }
}
