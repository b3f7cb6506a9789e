public import CoreMetrics

/// How a `RoomServer` gets its node of a cluster: its `Configuration.cluster`. `RoomCluster`'s
/// `ClusterConfiguration` is one (Redis), so that a server joins a cluster with one line:
///
/// ```swift
/// import RoomCluster  // the RoomCluster product: hiredis
///
/// configuration.cluster = ClusterConfiguration(redis: try RedisURL(parsing: "redis://10.0.0.5"), nodeID: "a")
/// ```
public protocol ClusterBackplaneConfiguration: Sendable {
    /// This node's backplane, made once when the server is made; the server starts and stops it.
    func makeBackplane(_ context: ClusterBackplaneContext) -> any ClusterBackplane
}

/// What the server gives the backplane it makes (``ClusterBackplaneConfiguration/makeBackplane(_:)``).
public struct ClusterBackplaneContext: Sendable {
    /// Where the server's metrics go: the backplane's belong there too.
    public var metricsFactory: any MetricsFactory

    /// Creates a context.
    public init(metricsFactory: any MetricsFactory) {
        self.metricsFactory = metricsFactory
    }
}
