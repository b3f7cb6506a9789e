/// Counts events per key in fixed one-second windows on a ``SignalingClock``: the basis of the servers' rate
/// limits (docs/wire-protocol.md#limits). Thread-safe.
package final class WindowedRateCounter: Sendable {
    private struct Window {
        var start: ClockInstant
        var count: Int
    }

    /// Events allowed per key and window; `nil`: no limit.
    package let limit: Int?
    private let clock: any SignalingClock
    private let windows = LockedValue([String: Window]())

    /// Creates a counter allowing `limit` events per key and second (at least 1), or everything for `nil`.
    package init(limit: Int?, clock: any SignalingClock) {
        self.limit = limit.map { max(1, $0) }
        self.clock = clock
    }

    /// Counts one event of `key` and returns how many it had in the current window, this one included; 0 when
    /// there is no limit (nothing is counted then).
    package func count(_ key: String) -> Int {
        guard limit != nil else { return 0 }
        let now = clock.now
        return windows.withLock { table -> Int in
            var window = table[key] ?? Window(start: now, count: 0)
            if now - window.start >= .seconds(1) { window = Window(start: now, count: 0) }
            window.count += 1
            table[key] = window
            return window.count
        }
    }

    /// Forgets `key` (an ended session).
    package func forget(_ key: String) { windows.withLock { _ = $0.removeValue(forKey: key) } }
}
