import SignalingSupport

/// Counts each session's Room requests in fixed one-second windows on the server's clock (DESIGN §6 "rate
/// limited"). Over the limit a request is refused with -32000; a session that sends twice the limit in one
/// window is persisting, and its connection is closed.
final class RequestRateLimiter: Sendable {
    /// What to do with one request.
    enum Verdict: Sendable, Hashable {
        case allow
        case refuse
        case refuseAndClose
    }

    private struct Window {
        var start: ClockInstant
        var count: Int
    }

    private let limit: Int?
    private let clock: any SignalingClock
    private let windows = LockedValue([String: Window]())

    init(limit: Int?, clock: any SignalingClock) {
        self.limit = limit.map { max(1, $0) }
        self.clock = clock
    }

    /// Counts one request of session `id`.
    func admit(_ id: String) -> Verdict {
        guard let limit else { return .allow }
        let now = clock.now
        let count = windows.withLock { table -> Int in
            var window = table[id] ?? Window(start: now, count: 0)
            if now - window.start >= .seconds(1) { window = Window(start: now, count: 0) }
            window.count += 1
            table[id] = window
            return window.count
        }
        if count <= limit { return .allow }
        return count >= 2 * limit ? .refuseAndClose : .refuse
    }

    /// Forgets an ended session.
    func forget(_ id: String) { windows.withLock { _ = $0.removeValue(forKey: id) } }
}
