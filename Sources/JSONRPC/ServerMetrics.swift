import CoreMetrics
import SignalingSupport

/// A ``JSONRPCServer``'s instruments (docs/operations.md#metrics), made once with the server; `nil` wherever
/// ``SignalingMetrics/isEnabled`` is false. The per-method ones live in the router's route entries
/// (``MethodRouter``), so a request finds them in the lookup it makes anyway.
final class ServerMetrics: Sendable {
    let metrics: SignalingMetrics
    let connections: Meter
    let sessions: Meter
    let resumes: Counter
    let outbox: OutboxMetrics
    private let closes: [SignalingMetrics.CloseReason: Counter]
    /// The built-ins, answered before the router (counted, not timed).
    let ping: MethodMetrics, connect: MethodMetrics, closeSession: MethodMetrics
    /// Requests for methods the router does not know, whatever their name.
    let unknown: MethodMetrics
    /// Messages that were not requests at all (-32700, -32600).
    let invalid: MethodMetrics

    init?(_ metrics: SignalingMetrics) {
        guard metrics.isEnabled else { return nil }
        self.metrics = metrics
        let factory = metrics.factory
        typealias Name = SignalingMetrics.Name
        connections = Meter(label: Name.connections, dimensions: [], factory: factory)
        sessions = Meter(label: Name.sessions, dimensions: [], factory: factory)
        resumes = Counter(label: Name.resumes, dimensions: [], factory: factory)
        var closes: [SignalingMetrics.CloseReason: Counter] = [:]
        for reason in SignalingMetrics.CloseReason.allCases { closes[reason] = metrics.closeCounter(reason) }
        self.closes = closes
        outbox = OutboxMetrics(metrics, overflowCloses: closes[.overflow])
        ping = MethodMetrics(KurentoConventions.ping, metrics, timed: false)
        connect = MethodMetrics(KurentoConventions.connect, metrics, timed: false)
        closeSession = MethodMetrics(KurentoConventions.closeSession, metrics, timed: false)
        unknown = MethodMetrics("unknown", metrics, timed: false)
        invalid = MethodMetrics("invalid", metrics, timed: false)
    }

    /// The instruments of a method registered on the router.
    func method(_ name: String) -> MethodMetrics { MethodMetrics(name, metrics, timed: true) }

    /// Counts a connection the server closed for `reason`.
    func closed(_ reason: SignalingMetrics.CloseReason) { closes[reason]?.increment() }

    /// The instruments of built-in `method`.
    func builtIn(_ method: String) -> MethodMetrics? {
        switch method {
        case KurentoConventions.ping: ping
        case KurentoConventions.connect: connect
        case KurentoConventions.closeSession: closeSession
        default: nil
        }
    }
}
