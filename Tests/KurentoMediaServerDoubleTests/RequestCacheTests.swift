import Foundation
import TestSupport
import Testing

/// KMS's request cache: replies stored by (sessionId, request id) and replayed without running the method.
@Suite struct RequestCacheTests {
    @Test func aRepeatedIDWithinTheLifetimeIsReplayedWithoutRunning() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        let request = #"{"jsonrpc":"2.0","id":7,"method":"create","params":{"type":"MediaPipeline"}}"#
        try await client.send(text: request)
        try await waitUntil("the first reply") { client.received.count == 1 }
        // The same id again: its session is injected from the socket, and the stored reply answers.
        try await client.send(text: request)
        try await waitUntil("the second reply") { client.received.count == 2 }
        #expect(client.received[0] == client.received[1])
        #expect(kms.liveObjectCount == 1)
        #expect(kms.requestCounts.methods["create"] == 1)
        #expect(kms.replayedRequests == 1)
        // A number id and the string of its digits are one key.
        try await client.send(text: #"{"jsonrpc":"2.0","id":"7","method":"create","params":{"type":"MediaPipeline"}}"#)
        try await waitUntil("the third reply") { client.received.count == 3 }
        #expect(client.received[2] == client.received[0])
        #expect(kms.liveObjectCount == 1)
    }

    @Test func errorsAreStoredToo() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        let session = try #require(try await client.result("connect")["sessionId"] as? String)
        let missing = #"{"jsonrpc":"2.0","id":9,"method":"describe","params":{"object":"nope","sessionId":"\#(session)"}}"#
        try await client.send(text: missing)
        try await client.send(text: missing)
        try await waitUntil("two replies") { client.received.count == 3 }
        #expect(client.received[1] == client.received[2])
        #expect(client.received[1].contains("40101"))
        #expect(kms.requestCounts.methods["describe"] == 1)
    }

    @Test func aRequestWithoutAnySessionIsNotStored() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        try await client.send(text: #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
        try await client.send(text: #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
        try await waitUntil("two pongs") { client.received.count == 2 }
        #expect(kms.requestCounts.methods["ping"] == 2)
        #expect(kms.replayedRequests == 0)
    }

    @Test func anExpiredReplyIsNotReplayed() async throws {
        let kms = try KurentoMediaServerDouble(configuration: .init(requestCacheTTL: .zero))
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        let request = #"{"jsonrpc":"2.0","id":3,"method":"create","params":{"type":"MediaPipeline"}}"#
        try await client.send(text: request)
        try await client.send(text: request)
        try await waitUntil("two replies") { client.received.count == 2 }
        #expect(kms.liveObjectCount == 2)
        #expect(kms.replayedRequests == 0)
    }
}
