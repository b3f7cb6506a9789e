import KurentoClient
import RoomClient
import RoomProtocol
import RoomServer
import TestSupport
import Testing

/// A room spread over two nodes whose media is in one Kurento Media Server (docs/kurento.md#cluster): one pipeline
/// for the room, recorded in Redis, and a subscriber on one node fed from a publisher on the other.
@Suite(.enabled(if: clusterTestsRun, "redis-server not found; skipped"), .serialized)
struct ClusterKurentoTests {
    @Test func aSubscriberOnOneNodeIsFedFromAPublisherOnAnotherThroughOnePipeline() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let cluster = try await Self.twoNodes(on: kms)
        defer { Task { await cluster.stop() } }
        try await withDeadline(.seconds(30), "one pipeline for two nodes") {
            let (alice, bob) = try await cluster.aliceAndBob()
            try await alice.publish()
            #expect(kms.pipelines.count == 1)
            let publisher = try #require(kms.liveObjects.first { $0.value == "WebRtcEndpoint" }?.key)
            _ = try await bob.nextSkippingChatAndJoins()  // participantPublished(alice)
            try await bob.subscribe(to: "alice")
            // Still one pipeline: node 1 found node 0's in Redis and fed bob's endpoint from alice's.
            #expect(kms.pipelines.count == 1)
            let endpoints = kms.liveObjects.filter { $0.value == "WebRtcEndpoint" }.map(\.key)
            #expect(endpoints.count == 2)
            let subscription = try #require(endpoints.first { $0 != publisher })
            #expect(subscription.hasPrefix(kms.pipelines[0] + "/"))
            #expect(Set(kms.connections(of: subscription).filter { $0.sink == subscription }.map(\.source)) == [publisher])
            // Each node talks to KMS in a session of its own, one connection each.
            #expect(kms.sessions.count == 2)
            #expect(kms.connectionCount == 2)
            // alice leaves first: her endpoint goes, bob's subscription with it, the room's pipeline stays for bob.
            try await alice.client.leave()
            try await waitUntil("alice's and bob's endpoints released") {
                kms.liveObjects.values.filter { $0 == "WebRtcEndpoint" }.isEmpty
            }
            #expect(kms.pipelines.count == 1)
            // The last node to leave releases the pipeline.
            try await bob.client.leave()
            try await waitUntil("the pipeline released") { kms.liveObjectCount == 0 }
        }
    }

    @Test func twoNodesThatPublishAtOnceShareOnePipeline() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let cluster = try await Self.twoNodes(on: kms)
        defer { Task { await cluster.stop() } }
        try await withDeadline(.seconds(30), "concurrent first publishes") {
            let (alice, bob) = try await cluster.aliceAndBob()
            async let a: Void = alice.publish()
            async let b: Void = bob.publish()
            _ = try await (a, b)
            // Both nodes may have created a pipeline; the one that lost the claim released its own.
            try await waitUntil("one pipeline left") { kms.pipelines.count == 1 }
            let pipeline = kms.pipelines[0]
            let endpoints = kms.liveObjects.filter { $0.value == "WebRtcEndpoint" }.map(\.key)
            #expect(endpoints.count == 2)
            #expect(endpoints.allSatisfy { $0.hasPrefix(pipeline + "/") })
            try await alice.client.leave()
            try await bob.client.leave()
            try await waitUntil("everything released") { kms.liveObjectCount == 0 }
        }
    }

    /// Two nodes whose media is in `kms`.
    static func twoNodes(on kms: KurentoMediaServerDouble) async throws -> Cluster {
        try await Cluster.start(nodes: 2) { _ in
            KurentoMediaBackend(configuration: .init(urls: [kms.url], client: .init(heartbeat: nil),
                                                     reconnectInterval: .milliseconds(100)))
        }
    }
}
