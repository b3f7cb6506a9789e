/// Counts events (or amounts, ``spend(_:_:)``) per key in fixed one-second windows on a ``SignalingClock``: the basis
/// of the servers' rate limits and budgets (docs/wire-protocol.md#limits). Thread-safe.
package final class WindowedRateCounter: Sendable {
    private struct Window {
        var start: ClockInstant
        var count: Int
    }

    /// Events (or the amount) allowed per key and window; `nil`: no limit.
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
        return withWindow(key) { window -> Int in
            window.count += 1
            return window.count
        }
    }

    /// Adds `amount` (bytes, say) to `key`'s current window unless the window already holds ``limit`` or more, and
    /// says whether it did: a budget per second in which the amount that crosses the limit still goes, and the
    /// next is refused until the window ends. Always true without a limit.
    package func spend(_ key: String, _ amount: Int) -> Bool {
        guard let limit else { return true }
        return withWindow(key) { window -> Bool in
            guard window.count < limit else { return false }
            window.count += amount
            return true
        }
    }

    /// Runs `body` on `key`'s window, a new one when a second has passed since the current one began.
    private func withWindow<T>(_ key: String, _ body: (inout Window) -> T) -> T {
        let now = clock.now
        return windows.withLock { table -> T in
            var window = table[key] ?? Window(start: now, count: 0)
            if now - window.start >= .seconds(1) { window = Window(start: now, count: 0) }
            let result = body(&window)
            table[key] = window
            return result
        }
    }

    /// Forgets `key` (an ended session).
    package func forget(_ key: String) { windows.withLock { _ = $0.removeValue(forKey: key) } }
}
