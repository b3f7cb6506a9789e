import Foundation
import TestSupport
import Testing

/// `subscribe` / `unsubscribe` and the events of connections.
@Suite struct EventTests {
    typealias JSON = RawKurentoClient.JSON

    @Test func anEventTheClassDoesNotDeclareIsNotSupported() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        let pipeline = try await client.create("MediaPipeline")
        let endpoint = try await client.create("WebRtcEndpoint", ["mediaPipeline": pipeline])
        let unknown = try await client.error("subscribe", ["object": endpoint, "type": "OnIceCandidate"])
        #expect(unknown["code"] as? Int == 40106)
        #expect(unknown["message"] as? String == "Event 'OnIceCandidate' not supported")
        #expect(unknown["data"] as? [String: String] == ["type": "MEDIA_OBJECT_EVENT_NOT_SUPPORTED"])
        #expect(try await client.error("subscribe", ["object": pipeline, "type": "IceCandidateFound"])["code"] as? Int == 40106)
        #expect(try await client.error("subscribe", ["object": "nope", "type": "Error"])["code"] as? Int == 40101)
        let subscribed = try await client.result("subscribe", ["object": endpoint, "type": "MediaFlowInStateChanged"])
        #expect((subscribed["value"] as? String)?.count == 36)
        #expect(subscribed["sessionId"] is String)
    }

    @Test func aRepeatedSubscriptionGetsItsOwnIDButEachOccurrenceIsSentOnce() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        let pipeline = try await client.create("MediaPipeline")
        let source = try await client.create("PassThrough", ["mediaPipeline": pipeline])
        let sink = try await client.create("PassThrough", ["mediaPipeline": pipeline])
        let first = try await client.result("subscribe", ["object": source, "type": "ElementConnected"])["value"] as? String
        let second = try await client.result("subscribe", ["object": source, "type": "ElementConnected"])["value"] as? String
        _ = try await client.result("subscribe", ["object": source, "type": "Error"])
        #expect(first != second)
        try await client.invoke(source, "connect", ["sink": sink, "mediaType": "AUDIO"])
        kms.emitError(on: source, description: "marker")
        try await client.awaitEvents("Error")
        let connected = client.events("ElementConnected")
        #expect(connected.count == 1)
        let data = try #require(connected.first?["data"] as? JSON)
        #expect(data["sink"] as? String == sink)
        #expect(data["mediaType"] as? String == "AUDIO")
        #expect(data["sourceMediaDescription"] as? String == "default")
        #expect(data["sinkMediaDescription"] as? String == "default")
        #expect(data["type"] as? String == "ElementConnected")
        // Unsubscribing one of the two leaves the other; unsubscribing anything never fails.
        let session = try #require(kms.sessions.first)
        let result = try await client.result("unsubscribe", ["object": source, "subscription": first ?? "", "sessionId": session])
        #expect(result.keys.sorted() == ["sessionId"])
        #expect(try await client.result("unsubscribe", ["object": "nope", "subscription": "nope"])["sessionId"] as? String == session)
        #expect(kms.subscriptionCount == 2)
    }

    @Test func connectWithoutAMediaTypeConnectsAudioVideoAndDataAndASinkHasOneSourcePerType() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let client = try await RawKurentoClient.connect(kms.url)
        let pipeline = try await client.create("MediaPipeline")
        let one = try await client.create("PassThrough", ["mediaPipeline": pipeline])
        let two = try await client.create("PassThrough", ["mediaPipeline": pipeline])
        let sink = try await client.create("PassThrough", ["mediaPipeline": pipeline])
        for object in [one, two] {
            for type in ["ElementConnected", "ElementDisconnected"] {
                _ = try await client.result("subscribe", ["object": object, "type": type])
            }
        }
        try await client.invoke(one, "connect", ["sink": sink])
        let connected = try await client.awaitEvents("ElementConnected", from: one, count: 3)
        #expect(connected.compactMap { ($0["data"] as? JSON)?["mediaType"] as? String } == ["AUDIO", "VIDEO", "DATA"])
        // A new source for VIDEO disconnects the old one first.
        try await client.invoke(two, "connect", ["sink": sink, "mediaType": "VIDEO"])
        let disconnected = try await client.awaitEvents("ElementDisconnected", from: one)
        #expect((disconnected[0]["data"] as? JSON)?["mediaType"] as? String == "VIDEO")
        let sources = try #require(try await client.invoke(sink, "getSourceConnections") as? [JSON])
        #expect(sources.compactMap { $0["source"] as? String } == [one, one, two])
        #expect(sources.allSatisfy { $0["__type__"] as? String == "ElementConnectionData" })
        // Disconnecting a pair that is not connected is no error, and still emits the event.
        try await client.invoke(two, "disconnect", ["sink": sink, "mediaType": "AUDIO"])
        try await client.awaitEvents("ElementDisconnected", from: two)
        #expect(kms.connections(of: sink).count == 3)
    }
}
