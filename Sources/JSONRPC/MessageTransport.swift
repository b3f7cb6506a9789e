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
}

/// One open, ordered, message-oriented connection: the seam between the JSON-RPC endpoints and the WebSocket
/// transport (DESIGN §1). Tests use ``LocalMessageConnection`` pairs; production uses the WebSocket adapter.
///
/// Contract:
/// - ``receive()`` returns inbound text messages in arrival order. It has one consumer. When the connection
///   ends for any reason it throws ``ConnectionEnd`` (also after a clean 1000 close), and keeps throwing it.
/// - ``send(_:)`` returns once the transport has taken the message; it throws ``ConnectionEnd`` once closed.
/// - ``close(code:reason:)`` is idempotent.
public protocol MessageConnection: Sendable {
    /// Sends one text message.
    func send(_ text: String) async throws
    /// Queues one text message without waiting for it to be written, in order with earlier and later
    /// ``send(_:)`` and `enqueue` calls; returns `false` when this connection cannot queue (the caller then uses
    /// ``send(_:)``). The default implementation returns `false`.
    /// - Throws: ``ConnectionEnd`` once the connection is closing or closed.
    func enqueue(_ text: String) throws -> Bool
    /// The next inbound message; throws ``ConnectionEnd`` when the connection has ended.
    func receive() async throws -> String
    /// Closes the connection with `code` and `reason`.
    func close(code: UInt16, reason: String) async
}

extension MessageConnection {
    /// Cannot queue: callers fall back to ``send(_:)``.
    public func enqueue(_ text: String) throws -> Bool { false }
}

/// Opens ``MessageConnection``s to one endpoint; the client calls it again to reconnect.
public protocol MessageTransport: Sendable {
    /// Opens a new connection.
    func connect() async throws -> any MessageConnection
}
