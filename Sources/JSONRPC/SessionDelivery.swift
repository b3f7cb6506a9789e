import DequeModule

/// The notifications a server session has handed to its connections and not yet released, numbered in the order
/// they were handed: a pure value, no I/O and no lock; ``ServerSession`` holds it under its one lock
/// (docs/architecture.md#server-sessions, docs/wire-protocol.md#delivery).
///
/// Numbers are implicit, as in SignalR's stateful reconnect: the n-th notification handed to the session's
/// connections is number n, and a client that counts what it reads knows the number of each without the wire
/// carrying it (a broadcast stays one encoded text for every member).
///
/// - ``Mode/written`` (stock clients, which say nothing): a notification is released once its connection reports it
///   written; what a connection held unwritten when it ended is handed again to the next one. What the kernel held
///   when a link died is lost: the client never said what it got.
/// - ``Mode/acknowledged`` (a client that said `connect {"received": N}`): a notification is released only when the
///   client acknowledges it (`rpc.ack {"received": N}`, or `received` in its `ping`), and a resume names the last one
///   it read, so the next connection gets exactly the ones after it, whatever the kernel lost.
struct SessionDelivery {
    /// What releases a notification.
    enum Mode: Equatable {
        /// Its connection reported it written.
        case written
        /// The client acknowledged it.
        case acknowledged
    }

    /// Why a resume's `received` cannot be honoured.
    enum Refusal: Error, Equatable {
        /// The client says it read more than was ever sent.
        case beyondSent(received: UInt64, sent: UInt64)
        /// The client says it read less than it acknowledged before: what it lacks is gone.
        case alreadyReleased(received: UInt64, released: UInt64)
    }

    private(set) var mode = Mode.written
    /// Handed and not released, oldest first; the first is number `released + 1`.
    private(set) var log = Deque<String>()
    /// Every notification up to this number is released.
    private(set) var released: UInt64 = 0
    /// The UTF-8 bytes of the texts in ``log``.
    private(set) var bytes = 0
    /// The number of the first notification handed to the current connection, and how many of the ones from it on
    /// that connection reported written: what the metrics count as sent (docs/operations.md#metrics), in either mode.
    private var epochBase: UInt64 = 1
    private var writtenInEpoch: UInt64 = 0

    /// The last notification the current connection reported written (or an earlier one released).
    var writtenThrough: UInt64 { max(released, epochBase - 1 + writtenInEpoch) }
    /// Notifications kept that the current connection has not reported written: what waits, for operators.
    var unwritten: Int { Int(sent - min(sent, writtenThrough)) }

    /// The number of the last notification handed.
    var sent: UInt64 { released + UInt64(log.count) }

    /// Keeps `text`, just handed to the connection, as the next number.
    mutating func handed(_ text: String) {
        log.append(text)
        bytes += text.utf8.count
    }

    /// The client acknowledges every notification up to `received` (``Mode/acknowledged``): returns how many were
    /// released. An acknowledgement of what was released already, or of more than was sent, releases nothing.
    mutating func acknowledge(_ received: UInt64) -> Int {
        guard mode == .acknowledged, received > released, received <= sent else { return 0 }
        return release(Int(received - released))
    }

    /// The connection of the current binding reported `count` more notifications written: in ``Mode/written`` they
    /// are released. Returns how many were released.
    mutating func written(_ count: Int) -> Int {
        guard count > 0 else { return 0 }
        writtenInEpoch += UInt64(count)
        guard mode == .written, writtenThrough > released else { return 0 }
        return release(Int(min(writtenThrough, sent) - released))
    }

    /// The notifications from ``released`` + 1 on go to a new connection, which has written none of them yet.
    /// Returns how many of them an earlier connection had reported written (counted as sent then, so they wait
    /// again).
    mutating func startEpoch() -> Int {
        let rewritten = Int(min(writtenThrough, sent) - min(released, writtenThrough))
        epochBase = released + 1
        writtenInEpoch = 0
        return rewritten
    }

    /// A `connect` said `received`: from now on only acknowledgements release. With `resuming`, `received` is the
    /// last notification the client read: everything up to it is released, and the rest is what the new connection
    /// must get (renumbered from `received + 1` by being handed again, in order). Returns the texts to hand again.
    mutating func resume(received: UInt64?, resuming: Bool) -> Result<Deque<String>, Refusal> {
        guard let received else { return .success(log) }  // a stock client: what was not written goes again
        let wasAcknowledged = mode == .acknowledged
        mode = .acknowledged
        guard resuming else { return .success([]) }
        if received > sent { return .failure(.beyondSent(received: received, sent: sent)) }
        if received < released {
            // Written mode releases on writes the client may never have read: only an acknowledged session can say
            // what is gone. Otherwise what is left goes again, numbered from what the client counted.
            if wasAcknowledged { return .failure(.alreadyReleased(received: received, released: released)) }
            released = received
            return .success(log)
        }
        _ = release(Int(received - released))
        return .success(log)
    }

    /// Forgets everything (the session ended); returns how many were never written by the current connection.
    mutating func discardAll() -> Int {
        defer {
            released = sent
            log.removeAll()
            bytes = 0
        }
        return unwritten
    }

    private mutating func release(_ count: Int) -> Int {
        for text in log.prefix(count) { bytes -= text.utf8.count }
        log.removeFirst(count)
        released += UInt64(count)
        return count
    }
}
