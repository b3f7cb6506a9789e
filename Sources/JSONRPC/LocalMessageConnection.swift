import SignalingSupport

/// One end of an in-memory connected pair (``pair()``): a ``MessageConnection`` with no socket, for tests and
/// for users' tests. Messages arrive in order; ``close(code:reason:)`` on one end makes the other end receive
/// its queued messages and then throw ``ConnectionEnd`` with the same code and reason, like a WebSocket close.
public final class LocalMessageConnection: MessageConnection {
    private let inbox: Mailbox
    private let outbox: Mailbox

    private init(inbox: Mailbox, outbox: Mailbox) {
        self.inbox = inbox
        self.outbox = outbox
    }

    /// Two connected ends: what one sends, the other receives.
    public static func pair() -> (LocalMessageConnection, LocalMessageConnection) {
        let a = Mailbox(), b = Mailbox()
        return (LocalMessageConnection(inbox: a, outbox: b), LocalMessageConnection(inbox: b, outbox: a))
    }

    /// Delivers `text` at once (an in-memory pair never waits).
    public func send(_ text: String) async throws {
        if let end = inbox.end { throw end }
        try outbox.deliver(text)
    }

    /// Delivers `text` at once, and reports it written (`nil`) before returning.
    public func enqueue(_ text: String, whenWritten: (@Sendable (ConnectionEnd?) -> Void)?) throws {
        if let end = inbox.end { throw end }
        try outbox.deliver(text)
        whenWritten?(nil)
    }

    /// The next message. Throws ``ConnectionEnd`` once the connection has ended, or `CancellationError` when the
    /// waiting task is cancelled.
    public func receive() async throws -> String { try await inbox.next() }

    public func close(code: UInt16 = 1000, reason: String = "") async {
        let end = ConnectionEnd(code: code, reason: reason)
        inbox.finish(end, discardingQueued: true)
        outbox.finish(end, discardingQueued: false)
    }

    /// Whether this end has ended (closed locally or by the peer, with nothing left to receive).
    public var isClosed: Bool { inbox.end != nil }
}

/// One direction of a pair: a queue with a single waiting consumer.
private final class Mailbox: Sendable {
    private struct State {
        var queue: [String] = []
        var head = 0
        var waiter: CheckedContinuation<String, any Error>?
        var end: ConnectionEnd?
    }
    private let state = LockedValue(State())

    var end: ConnectionEnd? { state.withLock { $0.end } }

    func deliver(_ text: String) throws {
        let waiter = try state.withLock { s -> CheckedContinuation<String, any Error>? in
            if let end = s.end { throw end }
            if let waiter = s.waiter {
                s.waiter = nil
                return waiter
            }
            s.queue.append(text)
            return nil
        }
        waiter?.resume(returning: text)
    }

    func finish(_ end: ConnectionEnd, discardingQueued: Bool) {
        let waiter = state.withLock { s -> CheckedContinuation<String, any Error>? in
            guard s.end == nil else { return nil }
            s.end = end
            if discardingQueued {
                s.queue = []
                s.head = 0
            }
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume(throwing: end)
    }

    func next() async throws -> String {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
                let ready = state.withLock { s -> Result<String, any Error>? in
                    if s.head < s.queue.count {
                        let text = s.queue[s.head]
                        s.head += 1
                        if s.head > 1024, s.head * 2 > s.queue.count {
                            s.queue.removeFirst(s.head)
                            s.head = 0
                        }
                        return .success(text)
                    }
                    if let end = s.end { return .failure(end) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    precondition(s.waiter == nil, "LocalMessageConnection.receive() has one consumer")
                    s.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { s -> CheckedContinuation<String, any Error>? in
                defer { s.waiter = nil }
                return s.waiter
            }
            waiter?.resume(throwing: CancellationError())
        }
    }
}
