/// Why a message connection ended: the WebSocket close code and reason, or a local description of the failure.
public struct ConnectionEnd: Error, Sendable, Hashable, CustomStringConvertible {
    /// The WebSocket close code (RFC 6455 §7.4); 1006 when the connection dropped without a close frame.
    public var code: UInt16
    /// The close reason, or a description of the network failure.
    public var reason: String

    /// Creates an end with `code` and `reason`.
    public init(code: UInt16, reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { reason.isEmpty ? "closed (\(code))" : "closed (\(code)): \(reason)" }

    /// Whether the server refused the connection: close code 4401 (unauthorized) or 4403 (forbidden), after the
    /// handshake or, from `WebSocketMessageTransport`, for an HTTP 401 or 403 answer to the upgrade. A client never
    /// dials again after it (``RPCError/unauthorized(_:)``).
    public var isAuthorizationRefusal: Bool { code == 4401 || code == 4403 }
}

/// One open, ordered, message-oriented connection: the seam between the JSON-RPC endpoints and the WebSocket
/// transport (docs/architecture.md#layering). Tests use ``LocalMessageConnection`` pairs; production uses the WebSocket
/// adapter.
///
/// Contract:
/// - ``receive()`` returns inbound text messages in arrival order. It has one consumer. When the connection
///   ends for any reason it throws ``ConnectionEnd`` (also after a clean 1000 close), and keeps throwing it.
/// - ``enqueue(_:whenWritten:)`` queues a message without waiting, in order with every earlier and later
///   `enqueue` and ``send(_:)``, and reports its fate through `whenWritten`, exactly once and in queue order:
///   `nil` once the transport has written it, or the ``ConnectionEnd`` when the connection ended before that.
///   `whenWritten` may run before `enqueue` returns (an in-memory connection writes at once) or later on the
///   transport's thread: it must be short, and must not take a lock that the caller holds around `enqueue`.
/// - ``send(_:)`` returns once the transport has written the message; it throws ``ConnectionEnd`` once closed.
/// - ``close(code:reason:)`` is idempotent.
public protocol MessageConnection: Sendable {
    /// Sends one text message and returns once it is written (the default: ``enqueue(_:whenWritten:)`` and wait).
    func send(_ text: String) async throws
    /// Queues one text message without waiting for it to be written.
    ///
    /// One contract for every connection, with nothing returned: either the message is refused, and the call
    /// throws and `whenWritten` never runs; or it is queued, the call returns, and `whenWritten` runs exactly once,
    /// with `nil` once the message is written or with the ``ConnectionEnd`` that came first. A connection whose
    /// queue is too long takes the message and then ends (a WebSocket closes with 1008): that message's
    /// `whenWritten` gets the end.
    /// - Throws: ``ConnectionEnd`` when the connection is closing or closed.
    func enqueue(_ text: String, whenWritten: (@Sendable (ConnectionEnd?) -> Void)?) throws
    /// The next inbound message; throws ``ConnectionEnd`` when the connection has ended.
    func receive() async throws -> String
    /// Closes the connection with `code` and `reason`.
    func close(code: UInt16, reason: String) async
    /// The executor of the thread that delivers this connection's messages, if it has one (WebSocket connections:
    /// the event loop's service thread). Endpoints consume the connection there, so a message costs no thread
    /// hop; only code that never blocks runs on it. Default `nil`.
    var executor: (any TaskExecutor)? { get }
    /// What the peer said when it opened the connection, by lowercased name (a WebSocket's upgrade request
    /// headers); servers continue the caller's trace from its `traceparent` (docs/operations.md#tracing).
    /// Default: none.
    var openingHeaders: [String: String] { get }
    /// The last measured round-trip time to the peer, if the connection measures it (a server-side WebSocket
    /// connection does, with PING frames: `WebSocketConnection.roundTripTime`). Default `nil`.
    var roundTripTime: Duration? { get }
    /// The bearer credential the peer presented when it opened the connection (a WebSocket upgrade's
    /// `Authorization: Bearer …`, else its `?access_token=`), if the transport carries one. Default `nil`.
    var bearerToken: String? { get }
    /// Whether this side closed the connection (the transport refused what the peer sent, or this side shut it
    /// down), as opposed to the peer or the network. Meaningful once ``receive()`` has thrown. Default `false`.
    var closedLocally: Bool { get async }
}

/// A connection that can also wait for its next message without registering for cancellation: cheaper, for a reader
/// whose task is never cancelled (a client's receive loop, which ends when the connection ends).
package protocol UncancelledReceiving: MessageConnection {
    /// ``MessageConnection/receive()`` without a cancellation handler; a cancelled task gets `CancellationError`
    /// instead of waiting.
    func receiveUncancelled() async throws -> String
}

extension MessageConnection {
    /// No executor of its own: consumers run wherever they were started.
    public var executor: (any TaskExecutor)? { nil }

    /// No opening headers.
    public var openingHeaders: [String: String] { [:] }
    /// No measurement: `nil`.
    public var roundTripTime: Duration? { nil }
    /// No credential: `nil`.
    public var bearerToken: String? { nil }
    /// Not known: `false`.
    public var closedLocally: Bool { get async { false } }

    /// Queues `text` without waiting for it to be written and without asking how it went (replies: a reply lost
    /// with its connection is recovered by the client's re-send or failure on the drop).
    /// - Throws: ``ConnectionEnd`` once the connection is closing or closed.
    public func enqueue(_ text: String) throws { try enqueue(text, whenWritten: nil) }

    /// Enqueues `text` and waits until it is written.
    public func send(_ text: String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            do {
                try enqueue(text) { end in
                    if let end { continuation.resume(throwing: end) } else { continuation.resume() }
                }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}

/// Opens ``MessageConnection``s to one endpoint; the client calls it again to reconnect.
public protocol MessageTransport: Sendable {
    /// Opens a new connection.
    func connect() async throws -> any MessageConnection
}
