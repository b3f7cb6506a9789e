import CoreMetrics

/// A ``JSONRPCClient``'s instruments (docs/operations.md#metrics): how its reconnections ended.
final class ClientMetrics: Sendable {
    /// Reconnected, and the server resumed the session.
    let resumed: Counter
    /// Reconnected into a fresh session (the server no longer knew the old one, or never gave one).
    let fresh: Counter
    /// Gave up reconnecting.
    let gaveUp: Counter

    init?(_ metrics: SignalingMetrics) {
        guard metrics.isEnabled else { return nil }
        func counter(_ outcome: String) -> Counter {
            Counter(label: SignalingMetrics.Name.reconnections, dimensions: [("outcome", outcome)], factory: metrics.factory)
        }
        resumed = counter("resumed")
        fresh = counter("fresh")
        gaveUp = counter("gave_up")
    }
}
