import Foundation
import RoomClient
import RoomServer
import RoomServerPrometheus
import RoomTestSupport
import Testing
import TestSupport

/// Issue 34, item 2: Prometheus from a library (RoomServerPrometheus) rather than code copied from `room-server`:
/// one call hands a RoomServer's metrics and its `GET /metrics` to an exporter.
@Suite struct PrometheusExporterTests {
    @Test func aServerExportingToItServesTheLibrarySeriesOnMetrics() async throws {
        // Given a server whose configuration exports to an exporter of the test's own (no global bootstrap)
        let exporter = PrometheusExporter()
        var configuration = RoomServer.Configuration()
        configuration.exportMetrics(to: exporter)
        let server = try await RoomServer.start(configuration)
        let user = RoomTestClient.metered("alice", room: "prometheus", url: server.url)

        // When a participant joins
        try await withDeadline(.seconds(30), "the join") { _ = try await user.client.join() }

        // Then GET /metrics (at the server's own metricsURL) shows the library's series, in the text format 0.0.4
        let port = try #require(RawHTTPClient.port(of: server.metricsURL))
        let response = try await RawHTTPClient.get(port: port, "/metrics")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == PrometheusExporter.contentType)
        let scrape = Scrape(response.text)
        #expect(scrape["signaling_participants"] == 1, "\(scrape)")
        #expect(scrape[#"signaling_requests_total{method="joinRoom",outcome="result"}"#] == 1, "\(scrape)")
        // with the request-latency buckets of SignalingMetrics (250 µs first), not swift-prometheus's defaults
        #expect(scrape[#"signaling_request_duration_seconds_bucket{method="joinRoom",le="0.00025"}"#] != nil, "\(scrape)")

        try await user.client.leave()
        await server.shutdown()
    }
}
