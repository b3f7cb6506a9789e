import JSONRPC
import KurentoClient
import PeerManager
import Prometheus
import RoomClient
import RoomServer
import RoomTestSupport
import SDP
import Testing
import TestSupport

/// docs/operations.md#metrics with Kurento Media Server: a RoomServer on the KMS double whose backend's client
/// reports to the test's registry, read back through the server's own `GET /metrics`: KMS round trips, live media
/// objects, and KMS errors, each labelled with the KMS.
@Suite struct KurentoMetricsTests {
    @Test func kmsRoundTripsObjectsAndErrorsShowInTheServersMetrics() async throws {
        // Given a server on the KMS double, its backend's client and the server reporting to one registry, which
        // GET /metrics serves
        let fixture = MetricsFixture()
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let backend = KurentoMediaBackend(configuration: .init(
            urls: [kms.url], client: .init(heartbeat: nil, metrics: fixture.metrics),
            reconnectInterval: .milliseconds(100)))
        let registry = fixture.registry
        let server = try await RoomServer.start(.init(
            media: backend, operations: .init(metricsExposition: { registry.emitToString() }),
            metrics: fixture.metrics))
        let port = try #require(RawHTTPClient.port(of: server.url))
        let label = #"kms="\#(kms.url)""#
        let objects = "kurento_objects{\(label)}", rounds = "kurento_request_duration_seconds_count{\(label)}"
        @Sendable func errors(_ kind: String) -> String { #"kurento_errors_total{\#(label),kind="\#(kind)"}"# }
        @Sendable func served() async throws -> Scrape {
            let response = try await RawHTTPClient.get(port: port, "/metrics")
            #expect(response.status == 200)
            return Scrape(response.text)
        }
        let alice = RoomTestClient.metered("alice", room: "kms-metrics", url: server.url)

        try await withDeadline(.seconds(30), "the KMS metrics") {
            // Before any media: the instruments are there, at zero
            var scrape = try await served()
            #expect(scrape[objects] == 0, "\(scrape)")
            #expect(scrape[errors("event")] == 0)

            // When alice publishes: the room's pipeline and her endpoint live at KMS, and each round trip was timed
            try await alice.client.join()
            let offer = try await PeerManager().generateOffer(for: "alice", media: .audioVideo(direction: .sendonly))
            _ = try await alice.client.publishVideo(sdpOffer: offer)
            scrape = try await served()
            #expect(scrape[objects] == 2, "\(scrape)")
            #expect(scrape[rounds] ?? 0 >= 2)
            #expect(scrape.total("kurento_errors_total") == 0)

            // When KMS raises an Error event on her endpoint: counted, and the endpoint released (the pipeline stays)
            let publisher = try #require(kms.liveObjects.first { $0.value == "WebRtcEndpoint" }?.key)
            kms.emitError(on: publisher, description: "Error code 1: stream failed", type: "STREAM_ERROR_FAILED")
            try await alice.waitForEvent("mediaError") { if case .mediaError = $0 { true } else { false } }
            try await fixture.waitUntil(objects, is: 1)
            scrape = try await served()
            #expect(scrape[errors("event")] == 1, "\(scrape)")
            #expect(scrape.total("kurento_errors_total") == 1)

            // When she leaves, the room's pipeline goes too
            try await alice.client.leave()
            try await fixture.waitUntil(objects, is: 0)
            #expect(kms.liveObjectCount == 0)
        }
        await server.shutdown()
    }
}
