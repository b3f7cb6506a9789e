import CLibWebSockets
import Dispatch
import Logging
import SignalingSupport
#if canImport(Glibc)
import Glibc
#endif

/// Where the libwebsockets log lines of one ``WebSocketEventLoop`` go: its swift-log `Logger`.
///
/// lws has one process-wide log mask and one emitter (`lws_set_log_level`), and the emitter is told nothing about
/// the context. So every loop registers a sink: the mask is the union of the levels the sinks' loggers want (a
/// line nobody wants is never formatted), and the emitter finds the sink of the thread it runs on through a
/// thread-specific pointer, installed on the loop's service thread and, while it creates the context, on the
/// thread creating the loop. Lines lws emits on other threads (only the debug chatter of `lws_cancel_service`)
/// are dropped.
///
/// The emitter runs on the service thread, so it only copies the line and hands it to a serial queue that calls
/// the logger: a slow log handler never holds up the loop, and no user code runs there or under a lock
/// (docs/architecture.md#blocking-work).
final class LWSLogSink: Sendable {
    private struct State {
        var logger: Logger
        /// The lws levels `logger` wants, read once per line without asking the handler.
        var mask: Int32
        /// Set when the loop has ended: the sink no longer counts towards the process-wide mask.
        var retired = false
    }
    private let state: LockedValue<State>
    private let delivery = DispatchQueue(label: "KurentoSignaling.lws-log")

    init(logger: Logger) {
        let mask = LWSLogLevels.mask(from: logger.logLevel)
        state = LockedValue(State(logger: logger, mask: mask))
        LWSLogSink.masks.withLock { $0[ObjectIdentifier(self)] = mask; Self.apply($0) }
    }

    deinit { Self.masks.withLock { $0[ObjectIdentifier(self)] = nil; Self.apply($0) } }

    /// The logger lines go to; setting it takes effect for the next line.
    var logger: Logger {
        get { state.withLock { $0.logger } }
        set {
            let mask = LWSLogLevels.mask(from: newValue.logLevel)
            let retired = state.withLock { s -> Bool in
                s.logger = newValue
                s.mask = mask
                return s.retired
            }
            guard !retired else { return }
            Self.masks.withLock { $0[ObjectIdentifier(self)] = mask; Self.apply($0) }
        }
    }

    /// The loop has ended: its levels no longer count towards what lws formats.
    func retire() {
        state.withLock { $0.retired = true }
        Self.masks.withLock { $0[ObjectIdentifier(self)] = nil; Self.apply($0) }
    }

    /// Called by the emitter on the thread the sink is installed on.
    fileprivate func emit(_ level: Int32, _ line: UnsafePointer<CChar>) {
        let (logger, mask) = state.withLock { ($0.logger, $0.mask) }
        guard level & mask != 0 else { return }
        var text = Substring(String(cString: line)).drop(while: \.isWhitespace)
        while let last = text.last, last.isWhitespace { text.removeLast() }
        guard !text.isEmpty else { return }
        let message = String(text)
        let swiftLevel = LWSLogLevels.swiftLevel(of: level)
        delivery.async { logger.log(level: swiftLevel, "\(message)", source: "libwebsockets") }
    }

    // MARK: Routing

    /// Makes this sink receive the lines lws emits on the calling thread; returns what was installed before.
    @discardableResult
    func install() -> UnsafeMutableRawPointer? {
        let previous = pthread_getspecific(currentSinkKey)
        pthread_setspecific(currentSinkKey, Unmanaged.passUnretained(self).toOpaque())
        return previous
    }

    /// Puts back what ``install()`` returned. The installing owner keeps the sink alive while it is installed.
    static func restore(_ previous: UnsafeMutableRawPointer?) { pthread_setspecific(currentSinkKey, previous) }

    fileprivate static var current: LWSLogSink? {
        pthread_getspecific(currentSinkKey).map { Unmanaged<LWSLogSink>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The mask of every live sink.
    private static let masks = LockedValue<[ObjectIdentifier: Int32]>([:])

    /// Tells lws which levels to format: the union of the live sinks' masks. `lws_set_log_level` only stores two
    /// process-wide values, so it is the one lws call made off a service thread (as before: the loop set 0).
    private static func apply(_ masks: [ObjectIdentifier: Int32]) {
        lws_set_log_level(masks.values.reduce(0, |), lwsLogEmit)
    }
}

/// The thread-specific slot holding the sink of the loop whose thread is running.
private let currentSinkKey: pthread_key_t = {
    var key = pthread_key_t()
    let rc = pthread_key_create(&key, nil)
    precondition(rc == 0, "pthread_key_create failed: \(rc)")
    return key
}()

/// The lws log emitter: a named global function (docs/libwebsockets.md#rules, rule 3).
private func lwsLogEmit(_ level: Int32, _ line: UnsafePointer<CChar>?) {
    guard let line, let sink = LWSLogSink.current else { return }
    sink.emit(level, line)
}

/// How lws log levels map to swift-log's.
enum LWSLogLevels {
    /// ERR, WARN, NOTICE, INFO and DEBUG map to their namesakes, USER to `.info`; lws's finer debug classes
    /// (PARSER, HEADER, EXT, CLIENT, LATENCY, THREAD) to `.trace`.
    static func swiftLevel(of lwsLevel: Int32) -> Logger.Level {
        switch lwsLevel {
        case LLL_ERR: .error
        case LLL_WARN: .warning
        case LLL_NOTICE: .notice
        case LLL_INFO, LLL_USER: .info
        case LLL_DEBUG: .debug
        default: .trace
        }
    }

    /// The lws levels whose lines a logger at `level` keeps.
    static func mask(from level: Logger.Level) -> Int32 {
        (0..<LLL_COUNT).map { Int32(1) << $0 }.filter { swiftLevel(of: $0) >= level }.reduce(0, |)
    }
}
