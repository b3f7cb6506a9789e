import CoreMetrics
import SignalingSupport

/// A cluster node's instruments (docs/operations.md#metrics), made once with the node; none with swift-metrics'
/// no-op factory.
///
/// | name | type | labels |
/// |---|---|---|
/// | `signaling_cluster_redis_round_trip_seconds` | histogram | |
/// | `signaling_cluster_events_total` | counter | `direction` (`sent`, `received`), `type` (the event's kind) |
/// | `signaling_cluster_redis_outages_total` | counter | |
///
/// `type` is the kind the server gave the event (`participantJoined`, `sendMessage`, `departed`, …), `invalid` for a
/// message on the cluster's channels that was not an event, and `other` once 64 kinds were seen in a direction (a
/// Redis shared with something else cannot grow the series without bound).
public final class ClusterMetrics: Sendable {
    /// Histogram: each Redis command or transaction, connecting included.
    public static let redisRoundTrip = "signaling_cluster_redis_round_trip_seconds"
    /// Counter by `direction` and `type`: events sent to and received from the other nodes.
    public static let events = "signaling_cluster_events_total"
    /// Counter: the node lost Redis (its subscription reported the loss).
    public static let redisOutages = "signaling_cluster_redis_outages_total"
    /// Distinct event kinds counted per direction before the rest share `type="other"`.
    static let maxKinds = 64

    let roundTrip: CoreMetrics.Timer
    let outages: Counter
    private let factory: any MetricsFactory
    private let counters = LockedValue([String: Counter]())

    /// The instruments, or `nil` for the no-op factory.
    init?(factory: any MetricsFactory) {
        guard !(factory is NOOPMetricsHandler) else { return nil }
        self.factory = factory
        roundTrip = CoreMetrics.Timer(label: Self.redisRoundTrip, dimensions: [], factory: factory)
        outages = Counter(label: Self.redisOutages, dimensions: [], factory: factory)
    }

    /// Counts an event of `kind` sent to the other nodes.
    func sent(_ kind: String) { counter("sent", kind).increment() }

    /// Counts an event of `kind` received from another node.
    func received(_ kind: String) { counter("received", kind).increment() }

    private func counter(_ direction: String, _ kind: String) -> Counter {
        let key = direction + "\n" + kind
        return counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let type = counters.count < 2 * Self.maxKinds ? kind : "other"
            let bounded = direction + "\n" + type
            if let counter = counters[bounded] { return counter }
            let counter = Counter(label: Self.events, dimensions: [("direction", direction), ("type", type)],
                                  factory: factory)
            counters[bounded] = counter
            return counter
        }
    }
}
