import Foundation
public import WebSocketTransport
public import JSONRPC

/// A ``/JSONRPC/MessageConnection`` over a ``/WebSocketTransport/WebSocketConnection``: the production seam between the
/// JSON-RPC endpoints and the socket (docs/architecture.md#modules).
///
/// - Messages go out as text frames. An inbound binary frame is read as UTF-8 text (invalid bytes become U+FFFD,
///   which the JSON parser then rejects).
/// - Every end of the connection, the clean 1000 close included, surfaces as ``/JSONRPC/ConnectionEnd`` with the close
///   code and reason, from ``receive()`` and from ``send(_:)``.
/// - A server's connection to a SockJS session URL carries SockJS framing (docs/wire-protocol.md#sockjs): the
///   adapter sends the open frame, wraps each message in an `a[…]` frame, sends heartbeats and a `c[…]` frame
///   before it closes, and unwraps the client's frames into messages.
public final class WebSocketMessageConnection: MessageConnection, UncancelledReceiving {
    /// The underlying WebSocket connection.
    public let webSocket: WebSocketConnection
    /// The SockJS session the connection carries, if any.
    private let sockJS: SockJSSession?

    /// Wraps `webSocket`. The adapter becomes the single consumer of its ``/WebSocketTransport/WebSocketConnection/messages``.
    public init(_ webSocket: WebSocketConnection) {
        self.webSocket = webSocket
        sockJS = nil
    }

    /// Wraps `webSocket`, a server's connection to a SockJS session URL, in SockJS framing: sends the open frame
    /// at once, and heartbeats when the server is silent for ``SockJSOptions/heartbeatInterval``.
    package init(_ webSocket: WebSocketConnection, sockJS options: SockJSOptions) {
        self.webSocket = webSocket
        let session = SockJSSession(options)
        sockJS = session
        try? webSocket.enqueue(.text(SockJSFrame.open), written: nil)
        session.startHeartbeat { [weak webSocket] in
            guard let webSocket else { return false }
            do {
                try webSocket.enqueue(.text(SockJSFrame.heartbeat), written: nil)
                return true
            } catch {
                return false
            }
        }
    }

    /// `text` as it goes on the wire: itself, or in a SockJS session its message frame.
    private func frame(_ text: String) -> String {
        guard let sockJS else { return text }
        sockJS.noteSent()
        return SockJSFrame.messages([text])
    }

    /// The executor of the event loop's service thread that owns the socket
    /// (``/WebSocketTransport/WebSocketEventLoopExecutor``).
    public var executor: (any TaskExecutor)? { webSocket.executor }

    /// The upgrade request's captured headers (a server-side connection's; empty for a client's).
    public var openingHeaders: [String: String] { webSocket.request?.headers ?? [:] }
    /// The round-trip time the server side measures with PING frames
    /// (``/WebSocketTransport/WebSocketConnection/roundTripTime``); `nil` on a client connection.
    public var roundTripTime: Duration? { webSocket.roundTripTime }
    /// The upgrade request's bearer token (`UpgradeRequest/bearerToken`); `nil` on a client connection.
    public var bearerToken: String? { webSocket.request?.bearerToken }
    /// Whether this side sent the close (``/WebSocketTransport/WebSocketConnection/closeInfo``).
    public var closedLocally: Bool { get async { await webSocket.closeInfo.initiatedLocally } }

    /// Sends `text` as one text message; returns once the transport has taken it.
    /// - Throws: ``/JSONRPC/ConnectionEnd`` once the connection is closing or closed.
    public func send(_ text: String) async throws {
        do {
            try await webSocket.send(.text(frame(text)))
        } catch TransportError.closed(let info) {
            throw ConnectionEnd(info)
        }
    }

    /// Queues `text` as one text message without waiting for it to be written (fan-out: one slow peer must not
    /// hold up the sender); a queue above the transport's byte limit closes the connection with 1008
    /// (docs/architecture.md#backpressure). `whenWritten` runs on the transport's service thread.
    /// - Throws: ``/JSONRPC/ConnectionEnd`` once the connection is closing or closed.
    public func enqueue(_ text: String, whenWritten: (@Sendable (ConnectionEnd?) -> Void)?) throws {
        do {
            var written: (@Sendable (TransportError?) -> Void)?
            if let whenWritten {
                written = { error in whenWritten(error.map { ConnectionEnd(transportError: $0) }) }
            }
            try webSocket.enqueue(.text(frame(text)), written: written)
        } catch TransportError.closed(let info) {
            throw ConnectionEnd(info)
        }
    }

    /// The next inbound message.
    /// - Throws: ``/JSONRPC/ConnectionEnd`` once the connection has ended (after every message that arrived before the
    ///   close was delivered), or `CancellationError` when the waiting task is cancelled.
    public func receive() async throws -> String {
        try await receive(cancellable: true)
    }

    /// ``receive()`` for a reader whose task is never cancelled (``/JSONRPC/UncancelledReceiving``).
    package func receiveUncancelled() async throws -> String {
        try await receive(cancellable: false)
    }

    private func receive(cancellable: Bool) async throws -> String {
        guard let sockJS else { return try await receiveFrame(cancellable: cancellable) }
        while true {
            if let message = sockJS.takePending() { return message }
            let frame = try await receiveFrame(cancellable: cancellable)
            do {
                sockJS.keep(try SockJSFrame.clientMessages(frame))
            } catch {
                // sockjs-protocol-0.3.3.py `test_broken_json`: the server ends the session; Spring's
                // WebSocketServerSockJsSession.handleMessage closes it with BAD_DATA.
                let (code, reason) = SockJSFrame.brokenDataClose
                await close(code: code, reason: reason)
                // Nothing after the broken data is served: read on to the end.
                while true { _ = try await receiveFrame(cancellable: cancellable) }
            }
        }
    }

    /// The next inbound WebSocket message, as text.
    private func receiveFrame(cancellable: Bool) async throws -> String {
        let message: WebSocketMessage?
        do {
            if cancellable {
                try Task.checkCancellation()
                // The iterator holds no state of its own (the connection buffers), so a fresh one per call reads
                // the one inbound sequence in order.
                var messages = webSocket.messages.makeAsyncIterator()
                message = try await messages.next()
            } else {
                message = try await webSocket.nextMessageUncancelled()
            }
        } catch TransportError.closed(let info) {
            throw ConnectionEnd(info)
        }
        switch message {
        case .text(let text)?: return text
        case .binary(let data)?: return String(decoding: data, as: UTF8.self)
        case nil: throw ConnectionEnd(await webSocket.closeInfo)
        }
    }

    /// Closes the connection with `code` and `reason`, after flushing what was sent, and waits until it is
    /// closed. Closing again does nothing.
    public func close(code: UInt16 = 1000, reason: String = "") async {
        if let sockJS {
            // As Spring's AbstractSockJsSession.close: the close frame, then the WebSocket close with the same status.
            sockJS.stop()
            try? webSocket.enqueue(.text(SockJSFrame.close(code: code, reason: reason)), written: nil)
        }
        await webSocket.close(code: WebSocketCloseCode(rawValue: code), reason: reason)
    }
}

extension ConnectionEnd {
    /// The end described by a WebSocket close.
    public init(_ info: WebSocketCloseInfo) {
        self.init(code: info.code.rawValue, reason: info.reason)
    }

    /// Why a queued message was never written: the connection's close, or 1006 with the error's description.
    init(transportError error: TransportError) {
        if case .closed(let info) = error { self.init(info) } else { self.init(code: 1006, reason: "\(error)") }
    }
}
