public import JSONRPC
import SignalingSupport

/// Every text some clients' connections sent and received, in order, each with the number of the connection that
/// carried it (request ids are per connection): what the schema witnesses check (docs/testing.md#witnesses).
/// ``transport(_:)`` wraps a client's transport so that its connections record here.
public final class WireLog: Sendable {
    /// Which way a message went, seen from the client.
    public enum Direction: String, Sendable { case sent, received }

    /// One message.
    public struct Entry: Sendable {
        /// The connection that carried it: 1 for the first connection recorded here, 2 for the next, …
        public var connection: Int
        /// Whether the client sent it or received it.
        public var direction: Direction
        /// Its text.
        public var text: String
    }

    private let state = LockedValue((entries: [Entry](), connections: 0))

    /// An empty log.
    public init() {}

    /// The messages so far, in order.
    public var entries: [Entry] { state.withLock { $0.entries } }

    /// `inner`, with every connection it opens recording here.
    public func transport(_ inner: any MessageTransport) -> RecordingTransport { RecordingTransport(inner: inner, log: self) }

    func record(_ connection: Int, _ direction: Direction, _ text: String) {
        state.withLock { $0.entries.append(Entry(connection: connection, direction: direction, text: text)) }
    }

    func newConnection() -> Int { state.withLock { $0.connections += 1; return $0.connections } }
}

/// A transport whose connections copy every message they send and receive into a ``WireLog``.
public struct RecordingTransport: MessageTransport {
    /// The transport that opens the connections.
    public let inner: any MessageTransport
    /// Where they record.
    public let log: WireLog

    /// Wraps `inner`; its connections record into `log`.
    public init(inner: any MessageTransport, log: WireLog) {
        self.inner = inner
        self.log = log
    }

    public func connect() async throws -> any MessageConnection {
        RecordingConnection(inner: try await inner.connect(), log: log, number: log.newConnection())
    }
}

/// A connection that copies every message it sends and receives into a ``WireLog``; everything else is `inner`'s.
public struct RecordingConnection: MessageConnection {
    /// The connection that carries the messages.
    public let inner: any MessageConnection
    /// Where they are recorded.
    public let log: WireLog
    /// Its number in `log`.
    public let number: Int

    public func enqueue(_ text: String, whenWritten: (@Sendable (ConnectionEnd?) -> Void)?) throws {
        log.record(number, .sent, text)
        try inner.enqueue(text, whenWritten: whenWritten)
    }

    public func receive() async throws -> String {
        let text = try await inner.receive()
        log.record(number, .received, text)
        return text
    }

    public func close(code: UInt16, reason: String) async { await inner.close(code: code, reason: reason) }

    public var executor: (any TaskExecutor)? { inner.executor }
    public var openingHeaders: [String: String] { inner.openingHeaders }
    public var roundTripTime: Duration? { inner.roundTripTime }
    public var bearerToken: String? { inner.bearerToken }
    public var closedLocally: Bool { get async { await inner.closedLocally } }
}
