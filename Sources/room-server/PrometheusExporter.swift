import CoreMetrics
import JSONRPC
import KurentoClient
import Prometheus

/// The process's metrics in Prometheus form (docs/operations.md#metrics): one registry, the swift-metrics factory
/// over it that ``RoomServerCommand`` bootstraps before the server starts (so the libraries' metrics land here),
/// and ``metricsExposition()``, the text a `GET /metrics` answers with.
struct PrometheusExporter: Sendable {
    /// The exporter of this process.
    static let shared = PrometheusExporter()

    /// The content type of ``metricsExposition()`` (Prometheus text format 0.0.4).
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Every metric of the process.
    let registry = PrometheusCollectorRegistry()

    /// The factory over ``registry``: request latencies, the server's and Kurento Media Server's, get buckets from
    /// 250 µs to 30 s (``SignalingMetrics/requestDurationBuckets``).
    var factory: PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        for name in [SignalingMetrics.Name.requestDuration, KurentoClient.MetricName.requestDuration] {
            factory.durationHistogramBuckets[name] = SignalingMetrics.requestDurationBuckets
        }
        return factory
    }

    /// Makes ``factory`` the process's metrics backend; call it once, before any server or client is made.
    func bootstrap() { MetricsSystem.bootstrap(factory) }

    /// Every metric in the Prometheus text exposition format.
    func metricsExposition() -> String { registry.emitToString() }
}
