import SignalingSupport

/// One WebSocket connection, client or server side.
///
/// - ``messages`` delivers inbound messages in order to a single consumer, with real backpressure: when the
///   consumer falls behind, reading from the socket pauses (``ConnectionLimits/inboundHighWatermark``).
/// - ``send(_:)`` may be called from any task; messages go out in call order.
/// - ``close(code:reason:)`` flushes what was queued, then closes; ``closeInfo`` tells how it ended.
///
/// The connection is closed with 1000 when the handle is deinitialised while still open.
public final class WebSocketConnection: Sendable {
    let core: ConnectionCore

    /// The upgrade request, on the server side; nil for client connections.
    public let request: UpgradeRequest?

    init(core: ConnectionCore, request: UpgradeRequest?) {
        self.core = core
        self.request = request
    }

    deinit {
        let core = self.core
        if case .closed = core.shared.withLock({ $0.phase }) { return }
        try? core.loop.submit { core.beginClose(code: WebSocketCloseCode.normal.rawValue, reason: "", flush: true) }
    }

    /// Opens a client connection to a `ws://` or `wss://` URL.
    ///
    /// - Parameters:
    ///   - url: the endpoint, e.g. `ws://127.0.0.1:8443/room`.
    ///   - configuration: TLS, headers, subprotocol, timeouts and limits.
    ///   - loop: the event loop; ``WebSocketEventLoop/shared`` by default.
    /// - Throws: ``TransportError`` when the URL is bad, the host cannot be resolved, the connection is refused,
    ///   TLS fails or name resolution and the handshake together take longer than
    ///   ``WebSocketClientConfiguration/handshakeTimeout``; ``TransportError/eventLoopShutDown`` at once when
    ///   `loop` has been shut down.
    public static func connect(
        to url: String, configuration: WebSocketClientConfiguration = .init(), loop: WebSocketEventLoop = .shared
    ) async throws -> WebSocketConnection {
        let target = try WebSocketURL(url)
        // Names are resolved here, never by lws on the service thread (``HostResolver``); the handshake gets
        // what is left of the budget.
        let started = ContinuousClock.now
        let address = try await configuration.resolver.address(of: target.host, within: configuration.handshakeTimeout)
        let remaining = max(.milliseconds(1), configuration.handshakeTimeout - (ContinuousClock.now - started))
        let core = ConnectionCore(loop: loop, limits: configuration.limits)
        let connection = WebSocketConnection(core: core, request: nil)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                core.shared.withLock { $0.connectWaiter = c }
                do throws(TransportError) {
                    try loop.submit { core.startClient(target, address: address, configuration, within: remaining) }
                } catch {
                    core.refused(error)
                }
            }
        } onCancel: {
            try? loop.submit {
                core.beginClose(code: WebSocketCloseCode.normal.rawValue, reason: "cancelled", flush: false)
            }
        }
        return connection
    }

    /// Opens a connection, runs `body` with its inbound messages and the connection for sending, and always
    /// closes it afterwards, with 1000 after a normal return and 1011 after a thrown error.
    public static func withConnection<T: Sendable>(
        to url: String, configuration: WebSocketClientConfiguration = .init(), loop: WebSocketEventLoop = .shared,
        _ body: (_ inbound: WebSocketInboundStream, _ outbound: WebSocketConnection) async throws -> T
    ) async throws -> T {
        let connection = try await connect(to: url, configuration: configuration, loop: loop)
        do {
            let result = try await body(connection.messages, connection)
            await connection.close(code: .normal, reason: "")
            return result
        } catch {
            await connection.close(code: .internalError, reason: "client error")
            throw error
        }
    }

    /// The executor of the service thread that owns this connection's socket: a consumer task that prefers it
    /// (`Task(executorPreference:)`) gets each message without a thread hop, and its sends reach lws without a
    /// wake-up. Such a task must never block (``WebSocketEventLoopExecutor``).
    public var executor: WebSocketEventLoopExecutor { core.loop.executor }

    /// Inbound messages. Single consumer: iterate it from one task.
    public var messages: WebSocketInboundStream { WebSocketInboundStream(connection: self) }

    /// The next inbound message, as ``messages`` gives it, for a consumer whose task is never cancelled (it waits
    /// without registering for cancellation; a cancelled task gets `CancellationError` instead of waiting).
    package func nextMessageUncancelled() async throws -> WebSocketMessage? {
        try await nextMessage(cancellable: false)
    }

    /// The next inbound message: nil after a 1000 close, ``TransportError/closed(_:)`` after any other.
    func nextMessage(cancellable: Bool) async throws -> WebSocketMessage? {
        if let message = try await core.nextMessage(cancellable: cancellable) { return message }
        if case .closed(let info) = core.shared.withLock({ $0.phase }), info.code != .normal {
            throw TransportError.closed(info)
        }
        return nil
    }

    /// Sends one message. Returns when lws has taken it (the socket accepted its last frame).
    /// - Throws: ``TransportError/closed(_:)`` once the connection is closing or closed.
    public func send(_ message: WebSocketMessage) async throws {
        try await core.send(message)
    }

    /// Queues one message without waiting for it to be written: for broadcasts, where one slow peer must not
    /// hold up the sender. A connection whose queue passes ``ConnectionLimits/maxOutboundBytes`` is closed with
    /// 1008 (docs/architecture.md#backpressure).
    ///
    /// - Parameters:
    ///   - message: the text or binary message to send.
    ///   - written: called exactly once, in queue order, on the service thread, never from inside this call and
    ///     never under a lock of the transport (keep it short): `nil` once the transport has taken the message's
    ///     last frame, or the ``TransportError`` when the connection ended before that.
    /// - Throws: ``TransportError/closed(_:)`` once the connection is closing or closed (`written` is not called).
    public func enqueue(_ message: WebSocketMessage, written: (@Sendable (TransportError?) -> Void)? = nil) throws {
        try core.enqueue(message, written: written)
    }

    /// Sends a text message.
    public func send(text: String) async throws { try await send(.text(text)) }

    /// Closes the connection after flushing queued messages and waits until it is closed.
    public func close(code: WebSocketCloseCode = .normal, reason: String = "") async {
        let core = self.core
        // Refused only when the loop is ending: it then finishes every connection, so `closeInfo` still returns.
        try? core.loop.submit { core.beginClose(code: code.rawValue, reason: reason, flush: true) }
        _ = await closeInfo
    }

    /// How the connection ended; waits until it has.
    public var closeInfo: WebSocketCloseInfo {
        get async {
            await withCheckedContinuation { (c: CheckedContinuation<WebSocketCloseInfo, Never>) in
                let info = core.shared.withLock { s -> WebSocketCloseInfo? in
                    if case .closed(let info) = s.phase { return info }
                    s.closeWaiters.append(c)
                    return nil
                }
                if let info { c.resume(returning: info) }
            }
        }
    }

    /// A snapshot of the inbound flow control: what is buffered for the consumer and whether reading is paused.
    public var inboundFlow: InboundFlow {
        core.shared.withLock {
            InboundFlow(bufferedBytes: $0.inboundBytes, bufferedMessages: $0.inbound.count,
                        peakBufferedBytes: $0.peakInboundBytes, isReadingPaused: $0.rxPaused, pauses: $0.pauseCount)
        }
    }

    /// Bytes queued for sending and not yet taken by the socket.
    public var queuedOutboundBytes: Int { core.shared.withLock { $0.outboundBytes } }

    /// The last round-trip time measured on this connection: from a probe PING the server sends every
    /// ``ConnectionLimits/rttProbeInterval`` to its PONG (docs/libwebsockets.md#round-trip-probe). `nil` until the
    /// first PONG arrives, when the probe is disabled, and on client connections (which do not probe). It keeps
    /// its last value after the connection closes.
    public var roundTripTime: Duration? { core.shared.withLock { $0.roundTripTime } }

    /// True until the connection has closed.
    public var isOpen: Bool {
        if case .open = core.shared.withLock({ $0.phase }) { return true }
        return false
    }

    /// The kernel thread id that ran this connection's establishing callback (the loop's service thread); 0 once
    /// the loop has shut down.
    public var serviceThreadID: Int32 {
        get async { (try? await core.loop.onServiceThread { [core] _ in core.establishedOnThread }) ?? 0 }
    }
}

/// Inbound flow-control figures of one connection (see ``WebSocketConnection/inboundFlow``).
public struct InboundFlow: Sendable, Hashable {
    /// Bytes received and not yet consumed.
    public var bufferedBytes: Int
    /// Messages received and not yet consumed.
    public var bufferedMessages: Int
    /// The most bytes ever buffered at once.
    public var peakBufferedBytes: Int
    /// Whether reading from the socket is paused because the consumer fell behind.
    public var isReadingPaused: Bool
    /// How many times reading was paused.
    public var pauses: Int
}

/// The inbound messages of one ``WebSocketConnection``: an `AsyncSequence` with backpressure.
///
/// It ends (returns nil) after a 1000 close, and throws ``TransportError/closed(_:)`` after any other close,
/// once every message that arrived before the close has been delivered. It keeps its connection alive (a released
/// connection handle closes the connection), so iterating it is enough to hold the connection open.
public struct WebSocketInboundStream: AsyncSequence, Sendable {
    public typealias Element = WebSocketMessage
    let connection: WebSocketConnection

    public struct AsyncIterator: AsyncIteratorProtocol {
        let connection: WebSocketConnection
        public mutating func next() async throws -> WebSocketMessage? {
            try await connection.nextMessage(cancellable: true)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(connection: connection) }
}
