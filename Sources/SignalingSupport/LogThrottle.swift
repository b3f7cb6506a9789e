package import Logging

/// Keeps log lines that a client can trigger at will (a `connect` naming an unknown session, a malformed message)
/// from flooding the log: at most ``burst`` lines of one kind per ``interval``; the first line let through after some
/// were held back is preceded by one line saying how many (docs/operations.md#logs). Thread-safe.
package final class LogThrottle: Sendable {
    private struct Window {
        var start: ClockInstant
        var logged = 0
        var suppressed = 0
    }

    /// Lines of one kind logged per interval.
    package let burst: Int
    /// The length of one interval.
    package let interval: Duration
    private let clock: any SignalingClock
    private let windows = LockedValue([String: Window]())

    /// Lets `burst` lines of each kind through per `interval` on `clock` (defaults: 10 lines per 10 s).
    package init(burst: Int = 10, interval: Duration = .seconds(10), clock: any SignalingClock) {
        self.burst = max(1, burst)
        self.interval = interval
        self.clock = clock
    }

    /// Whether a line of kind `key` may be logged now, and how many lines of that kind were held back since the
    /// last one logged (`nil`: this one is held back too).
    package func admit(_ key: String) -> Int? {
        let now = clock.now
        return windows.withLock { table -> Int? in
            var window = table[key] ?? Window(start: now)
            var held = 0
            if now - window.start >= interval {
                held = window.suppressed
                window = Window(start: now)
            }
            guard window.logged < burst else {
                window.suppressed += 1
                table[key] = window
                return nil
            }
            window.logged += 1
            table[key] = window
            return held
        }
    }
}

extension Logger {
    /// Logs `message` at `level` unless `throttle` holds it back (``LogThrottle``); the message is the throttle's
    /// kind. A line let through after others were held back is preceded by one saying how many.
    package func log(_ level: Logger.Level, _ message: String, metadata: @autoclosure () -> Logger.Metadata? = nil,
                     throttledBy throttle: LogThrottle) {
        guard logLevel <= level, let held = throttle.admit(message) else { return }
        if held > 0 {
            log(level: level, "suppressed similar lines", metadata: ["message": "\(message)", "suppressed": "\(held)"])
        }
        log(level: level, "\(message)", metadata: metadata())
    }
}

/// How text a client chose (a method name, an id, a reason) goes into a log line: at most ``limit`` UTF-8 bytes,
/// then its total length; control and format characters escaped, so that it can neither flood the log nor forge a
/// line of its own (docs/operations.md#logs).
package enum LogText {
    /// The bytes of a client's text a log line keeps.
    package static let limit = 256

    /// `text` fit for a log line: cut to ``limit`` bytes (at a character boundary) with `… (N bytes)` after it,
    /// control and format characters as `\u{…}`.
    package static func bounded<S: StringProtocol>(_ text: S, limit: Int = LogText.limit) -> String {
        var out = ""
        var bytes = 0
        for scalar in text.unicodeScalars {
            let piece: String
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator:
                piece = "\\u{" + String(scalar.value, radix: 16) + "}"
            default:
                piece = String(scalar)
            }
            guard bytes + piece.utf8.count <= limit else {
                return out + "… (\(text.utf8.count) bytes)"
            }
            out += piece
            bytes += piece.utf8.count
        }
        return out
    }
}

extension Logger.MetadataValue {
    /// A metadata value for text a client chose (``LogText/bounded(_:limit:)``).
    package static func bounded<S: StringProtocol>(_ text: S) -> Logger.MetadataValue { .string(LogText.bounded(text)) }
}
