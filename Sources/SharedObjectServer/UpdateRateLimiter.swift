import SignalingSupport

/// Counts each session's `set` and `send` requests in fixed one-second windows on the service's clock.
final class UpdateRateLimiter: Sendable {
    private struct Window {
        var start: ClockInstant
        var count: Int
    }

    let limit: Int?
    private let clock: any SignalingClock
    private let windows = LockedValue([String: Window]())

    init(limit: Int?, clock: any SignalingClock) {
        self.limit = limit.map { max(1, $0) }
        self.clock = clock
    }

    /// Counts one request of session `id`; `false` when it is over the limit.
    func admit(_ id: String) -> Bool {
        guard let limit else { return true }
        let now = clock.now
        return windows.withLock { table -> Bool in
            var window = table[id] ?? Window(start: now, count: 0)
            if now - window.start >= .seconds(1) { window = Window(start: now, count: 0) }
            window.count += 1
            table[id] = window
            return window.count <= limit
        }
    }

    /// Forgets an ended session.
    func forget(_ id: String) { windows.withLock { _ = $0.removeValue(forKey: id) } }
}
