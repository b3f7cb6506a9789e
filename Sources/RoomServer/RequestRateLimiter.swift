import SignalingSupport

/// Counts each session's Room requests in one-second windows on the server's clock (docs/wire-protocol.md#limits, "rate
/// limited"). Over the limit a request is refused with -32000; a session that sends twice the limit in one window is
/// persisting, and its connection is closed.
final class RequestRateLimiter: Sendable {
    /// What to do with one request.
    enum Verdict: Sendable, Hashable {
        case allow
        case refuse
        /// Refuse and close; `first` for the request that crossed twice the limit in its window (the one close
        /// that `signaling_closes_total{reason="rate_limit"}` counts, docs/operations.md#metrics).
        case refuseAndClose(first: Bool)
    }

    private let counter: WindowedRateCounter

    init(limit: Int?, clock: any SignalingClock) {
        counter = WindowedRateCounter(limit: limit, clock: clock)
    }

    /// Counts one request of session `id`.
    func admit(_ id: String) -> Verdict {
        guard let limit = counter.limit else { return .allow }
        let count = counter.count(id)
        if count <= limit { return .allow }
        return count >= 2 * limit ? .refuseAndClose(first: count == 2 * limit) : .refuse
    }

    /// Forgets an ended session.
    func forget(_ id: String) { counter.forget(id) }
}
