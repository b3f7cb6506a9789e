import CoreMetrics
public import JSONRPC
import KurentoClient
public import Prometheus
public import RoomServer

/// The metrics of a process in Prometheus form (docs/operations.md#metrics): one registry, the swift-metrics
/// factory over it (request latencies in ``/JSONRPC/SignalingMetrics/requestDurationBuckets``), and ``metricsExposition()``,
/// the text a `GET /metrics` answers with.
///
/// ```swift
/// PrometheusExporter.shared.bootstrap()              // once, before any server or client is made
/// var configuration = RoomServer.Configuration()
/// configuration.exportMetrics(to: .shared)          // its metrics in the registry, served on GET /metrics
/// let server = try await RoomServer.start(configuration)
/// print(server.metricsURL)                            // http://127.0.0.1:41234/metrics
/// ```
public struct PrometheusExporter: Sendable {
    /// The exporter of this process, what `room-server` bootstraps.
    public static let shared = PrometheusExporter()

    /// The content type of ``metricsExposition()``, Prometheus text format 0.0.4, as `GET /metrics` sends it.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Every metric reported through ``factory``.
    public let registry: PrometheusCollectorRegistry

    /// Creates an exporter over `registry` (a new, empty one by default); tests make one each, so that they never
    /// see each other's metrics and never bootstrap.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
    }

    /// The swift-metrics factory over ``registry``: request latencies, the signaling servers' and Kurento Media
    /// Server's, get buckets from 250 µs to 30 s (``/JSONRPC/SignalingMetrics/requestDurationBuckets``).
    public var factory: PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        for name in [SignalingMetrics.Name.requestDuration, KurentoClient.MetricName.requestDuration] {
            factory.durationHistogramBuckets[name] = SignalingMetrics.requestDurationBuckets
        }
        return factory
    }

    /// ``factory`` as the libraries' configurations take it (`RoomServer.Configuration.metrics`,
    /// `KurentoClient.Configuration.metrics`, …).
    public var metrics: SignalingMetrics { SignalingMetrics(factory: factory) }

    /// Makes ``factory`` the process's metrics backend (`MetricsSystem.bootstrap`), so that every configuration
    /// made afterwards reports here by default. Call it once per process, before any server or client is made:
    /// swift-metrics traps on a second bootstrap.
    public func bootstrap() { MetricsSystem.bootstrap(factory) }

    /// Every metric of ``registry`` in the Prometheus text exposition format (``contentType``).
    public func metricsExposition() -> String { registry.emitToString() }
}

extension RoomServer.Configuration {
    /// Reports this server's metrics to `exporter` (``/RoomServer/RoomServer/Configuration/metrics``) and serves
    /// them on `GET /metrics` (``/RoomServer/OperationsConfiguration/metricsExposition``, read back from
    /// ``/RoomServer/RoomServer/metricsURL``). Its media backend reports where its own configuration says (with
    /// ``PrometheusExporter/bootstrap()`` done first, the same registry).
    public mutating func exportMetrics(to exporter: PrometheusExporter) {
        metrics = exporter.metrics
        operations.metricsExposition = exporter.metricsExposition
    }
}
