public import Logging
public import SignalingSupport

/// Settings of a ``WebSocketEventLoop``.
public struct WebSocketEventLoopConfiguration: Sendable {
    /// Where libwebsockets' own log lines go. lws's ERR, WARN, NOTICE, INFO and DEBUG lines become `.error`,
    /// `.warning`, `.notice`, `.info` and `.debug` messages with source `libwebsockets` (its finer debug classes
    /// `.trace`); lines below the logger's `logLevel` are never even formatted. They reach the logger from a queue
    /// of the loop, never from its service thread. The default discards everything, like lws's silence before.
    ///
    /// ```swift
    /// var lws = Logger(label: "lws")
    /// lws.logLevel = .warning                      // lws errors and warnings
    /// let loop = try WebSocketEventLoop(configuration: .init(logger: lws))
    /// ```
    public var logger: Logger

    /// How the service thread waits for its sockets. Default ``EventBackend/libev``.
    public var backend: EventBackend

    /// The environment in which the system CA store is located (`SSL_CERT_FILE`, `SSL_CERT_DIR`); nil reads the
    /// process's. Tests set it instead of the process environment.
    var environment: [String: String]?

    /// Hands lws a context setting it refuses (TCP keep-alive time without an interval), so that tests can watch
    /// a failed context creation.
    var refusedByLWSForTesting = false

    /// Creates loop settings.
    /// - Parameters:
    ///   - logger: where lws's log lines go; a logger that discards them by default.
    ///   - backend: how the service thread waits for its sockets; ``EventBackend/libev`` by default.
    public init(
        logger: Logger = .disabled(label: "KurentoSignaling.libwebsockets"),
        backend: EventBackend = .libev
    ) {
        self.logger = logger
        self.backend = backend
    }
}

/// How a ``WebSocketEventLoop``'s service thread waits for its sockets.
public enum EventBackend: Sendable, Hashable {
    /// libwebsockets' libev plugin on a libev loop that the service thread runs: `epoll` on Linux, so a wake-up
    /// costs the same with 10 or 10,000 open connections. Needs Debian's `libwebsockets-evlib-ev` at run time;
    /// without it the loop logs a warning and uses ``poll`` (``WebSocketEventLoop/backend`` tells which).
    case libev
    /// libwebsockets' own `poll()` loop: every wake-up scans every open socket (at 1,000 idle connections a round
    /// trip took 420 µs instead of 30 µs in `Benchmarks/C/evlib_study.c`).
    case poll
}
