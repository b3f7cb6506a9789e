import CoreMetrics
import DequeModule
import Logging
import SignalingSupport

/// One client session on a ``JSONRPCServer`` (docs/architecture.md#identity). Its id is a 128-bit CSPRNG value and a
/// bearer credential: ``description`` shows only a redacted prefix, and the server never logs it in full.
///
/// The session outlives its connection for the server's reconnection window, so `connect{sessionId}` can
/// re-bind it to a new connection (docs/wire-protocol.md#sessions).
public final class ServerSession: Sendable, CustomStringConvertible {
    /// The session id (`sessionId` on the wire). Treat it as a secret.
    public let id: String
    /// Who the connection that opened the session speaks for (``JSONRPCServer/Configuration/principal``): a resume
    /// needs a connection with the same one.
    let principal: String?
    let responses: ResponseCache
    /// Everything about the session's link, under one lock: which connection is bound, the expiry timer, the ping
    /// watchdog, the closes asked for after a reply and the notifications handed and not released
    /// (docs/architecture.md#server-sessions). The lock is never held while user code or a timer's action runs.
    private let link: LockedValue<Link>
    /// What the bound connection reports written (``SessionDelivery/Mode/written``): a lock of its own, a leaf,
    /// because a connection may report from inside ``MessageConnection/enqueue(_:whenWritten:)``, which is called
    /// under `link`'s lock.
    private let reports = LockedValue(WriteReports())
    private let ids = SequentialIDs()
    private let requestTimeout: Duration
    private let retries: Int
    /// The clock behind the expiry, the watchdog and the deadlines of server→client requests.
    let requestClock: any SignalingClock
    /// The most bytes of notifications handed and not released (``JSONRPCServer/Configuration/maxUnacknowledgedBytes``).
    private let byteLimit: Int
    /// Ends the session at its server (as `closeSession` does).
    private let ender: @Sendable (ServerSession) -> Void
    /// Where the server's end and resume handlers run for this session: off the service thread, in order.
    let handlers = SessionHandlerQueue()
    /// The server's instruments, if on (the session's outboxes count through them).
    let metrics: ServerMetrics?

    private struct Link {
        var binding: ConnectionBinding?
        /// Grows with every bind and unbind: write reports, expiry timers and watchdogs of an older one do nothing.
        var epoch: UInt64 = 0
        var expiry: (any TimerHandle)?
        var watchdog = PingWatchdog()
        var closesAfterReply: [RequestID: ConnectionEnd] = [:]
        var delivery = SessionDelivery()
        /// The server→client requests sent and not answered.
        var requests = RequestTable()
        var ended = false
    }

    private struct WriteReports {
        var epoch: UInt64 = 0
        var written = 0
    }

    init(binding: ConnectionBinding, configuration: JSONRPCServer.Configuration, budget: ResponseCacheBudget,
         metrics: ServerMetrics?, end: @escaping @Sendable (ServerSession) -> Void) {
        id = SecureID.hex(bits: 128)
        principal = binding.principal
        self.metrics = metrics
        ender = end
        link = LockedValue(Link(binding: binding))
        responses = ResponseCache(clock: configuration.clock, retention: configuration.duplicateRetention,
                                  limit: configuration.maxRememberedResponses, budget: budget)
        retries = configuration.retries
        requestClock = configuration.clock
        requestTimeout = configuration.requestTimeout
        byteLimit = configuration.maxUnacknowledgedBytes
    }

    deinit {
        let (lost, timer) = link.withLock { l in
            _ = collectWritten(&l)
            return (l.delivery.discardAll(), l.requests.disarm())
        }
        timer?.cancel()
        countDropped(lost)
    }

    public var description: String { "session \(SecureID.redacted(id))" }

    /// The session as every log line names it, `session=<redacted id>` (docs/operations.md#logs): its id's first
    /// characters, never the id.
    package var redactedID: String { SecureID.redacted(id) }

    /// The connection bound to the session now, if any: applications read what the transport knows about the
    /// peer from it (e.g. a `WebSocketMessageConnection`'s upgrade request, for auth).
    public var connection: (any MessageConnection)? { link.withLock { $0.binding?.connection } }

    /// Whether a connection is bound to the session now.
    public var isConnected: Bool { link.withLock { $0.binding != nil } }

    /// Sends a notification to the client, numbered and kept until released like every notification of the session
    /// (docs/wire-protocol.md#delivery): a client that acknowledges gets it after a resume if the link lost it.
    /// - Throws: ``RPCError/connectionClosed(_:)`` when no connection is bound.
    public func notify(_ method: String, params: JSONValue? = nil) async throws {
        metrics?.outbox.queued.increment()
        metrics?.outbox.depth.increment()
        let text = RPCMessage.notification(RPCNotification(method: method, params: params)).jsonText
        switch deliver(CollectionOfOne(text)) {
        case .handed: return
        case .noConnection:
            metrics?.outbox.depth.decrement()
            metrics?.outbox.dropped.increment()
            throw RPCError.connectionClosed(nil)
        case .overflow:
            await end(code: Self.overflowEnd.code, reason: Self.overflowEnd.reason)
            throw RPCError.connectionClosed(Self.overflowEnd)
        }
    }

    /// Sends a request to the client and returns its result (timeout ``JSONRPCServer/Configuration/requestTimeout``
    /// unless given).
    public func call(_ method: String, params: JSONValue? = nil, timeout: Duration? = nil) async throws -> JSONValue {
        let id = RequestID.number(ids.next())
        let text = RPCRequest(id: id, method: method, params: params).jsonText
        let outcome = registerRequest(id, method: method, text: text, timeout: timeout ?? requestTimeout, retries: retries) {
            [weak self] text in try await self?.transmit(text)
        }
        return try await withTaskCancellationHandler {
            do {
                try await transmit(text)
            } catch {
                completeRequest(id, with: .failure(error as? RPCError ?? .connectionClosed(nil)))
            }
            return try await outcome.wait().get()
        } onCancel: {
            completeRequest(id, with: .failure(.cancelled))
        }
    }

    /// Closes the session's current connection.
    public func close(code: UInt16 = 1000, reason: String = "") async {
        await link.withLock { $0.binding }?.connection.close(code: code, reason: reason)
    }

    /// Ends the session for good, as `closeSession` would, then closes its current connection (if any) with `code`
    /// and `reason`: the server's ``JSONRPCServer/whenSessionEnds(_:)`` handlers run, and a later
    /// `connect{sessionId}` naming it gets 40007 (docs/wire-protocol.md#sessions). Ending an ended session does nothing
    /// more.
    public func end(code: UInt16 = 1000, reason: String = "") async {
        let binding = link.withLock { $0.binding }
        ender(self)
        await binding?.connection.close(code: code, reason: reason)
    }

    /// Asks the server to close the connection that carried request `id` with `code` and `reason` once the reply
    /// to it has been sent (Room's `leaveRoom`: reply first, then close with 1000). Call it from that request's
    /// handler; it has no effect on notifications. Inside a batch the connection closes after the batch's reply.
    public func closeAfterReply(to id: RequestID, code: UInt16 = 1000, reason: String = "") {
        link.withLock { $0.closesAfterReply[id] = ConnectionEnd(code: code, reason: reason) }
    }

    func takeCloseAfterReply(_ id: RequestID) -> ConnectionEnd? {
        link.withLock { $0.closesAfterReply.removeValue(forKey: id) }
    }

    func transmit(_ text: String) async throws {
        guard let current = link.withLock({ $0.binding?.connection }) else { throw RPCError.connectionClosed(nil) }
        do { try await current.send(text) } catch let end as ConnectionEnd { throw RPCError.connectionClosed(end) }
    }

    /// Whether a connection bound as `binding` may resume or take over this session: it speaks for the same
    /// principal (compared in constant time; `nil` only matches `nil`).
    func admits(_ binding: ConnectionBinding) -> Bool {
        switch (principal, binding.principal) {
        case (nil, nil): true
        case (let mine?, let theirs?): SecureID.constantTimeEquals(mine, theirs)
        default: false
        }
    }

    // MARK: - Binding

    /// A `connect` on the session's own connection said `received` (docs/wire-protocol.md#delivery): from now on
    /// the client's acknowledgements release its notifications.
    func acknowledgesDelivery() {
        link.withLock { _ = $0.delivery.resume(received: 0, resuming: false) }
    }

    /// Whether the session's notifications are released by the client's acknowledgements (it said `received`).
    var isAcknowledged: Bool { link.withLock { $0.delivery.mode == .acknowledged } }

    /// Binds `new` (a `connect{sessionId}` from another socket, `received` the last notification its client read,
    /// if it said) and hands it, in order, every notification the client has not got: the kept ones after
    /// `received`, or (a stock client) the ones no connection reported written. Returns the connection it replaces,
    /// or the refusal when `received` cannot be honoured (the session is left as it was).
    func attach(_ new: ConnectionBinding, received: UInt64?) -> Result<ConnectionBinding?, SessionDelivery.Refusal> {
        let (outcome, timer, rewritten) = link.withLock {
            l -> (Result<ConnectionBinding?, SessionDelivery.Refusal>, (any TimerHandle)?, Int) in
            _ = collectWritten(&l)
            let replay: Deque<String>
            switch l.delivery.resume(received: received, resuming: true) {
            case .success(let rest): replay = rest
            case .failure(let refusal): return (.failure(refusal), nil, 0)
            }
            let old = l.binding
            l.binding = new
            l.epoch += 1
            startReports(epoch: l.epoch)
            let rewritten = l.delivery.startEpoch()
            defer { l.expiry = nil }
            hand(replay, to: new, mode: l.delivery.mode, epoch: l.epoch)
            return (.success(old), l.expiry, rewritten)
        }
        timer?.cancel()
        // What an earlier connection wrote and the new one gets again waits again (docs/operations.md#metrics).
        if rewritten > 0 { metrics?.outbox.depth.increment(by: Double(rewritten)) }
        return outcome
    }

    /// Unbinds `old` if it is still the bound connection: the session's server→client requests fail, and the
    /// session expires after `window` unless a `connect` re-binds it first. The unbinding and the arming of the
    /// expiry are one step as far as a resume can tell: a timer armed for an unbinding that a resume has
    /// overtaken never ends the session. Returns whether `old` was bound.
    func detach(_ old: ConnectionBinding, end: ConnectionEnd, window: Duration, clock: any SignalingClock,
                expire: @escaping @Sendable () -> Void) -> Bool {
        let unbound = link.withLock { l -> UInt64? in
            guard let bound = l.binding, bound === old else { return nil }
            _ = collectWritten(&l)
            l.binding = nil
            l.epoch += 1
            startReports(epoch: l.epoch)
            l.watchdog.disarm()
            return l.epoch
        }
        guard let unbound else { return false }
        failRequests(with: .connectionClosed(end))
        // The timer is armed outside the lock (a clock may run its action at once); it counts only while the
        // session is still unbound in the same epoch, and it checks again when it fires.
        let timer = clock.schedule(after: window) { [weak self] in
            guard let self, self.link.withLock({ $0.binding == nil && $0.epoch == unbound && !$0.ended }) else { return }
            expire()
        }
        let stale = link.withLock { l -> Bool in
            guard l.binding == nil, l.epoch == unbound, !l.ended else { return true }
            l.expiry = timer
            return false
        }
        if stale { timer.cancel() }
        return true
    }

    /// Ends the session for good (closeSession or expiry).
    func terminate() {
        let (expiry, lost) = link.withLock { l -> ((any TimerHandle)?, Int) in
            l.ended = true
            defer {
                l.expiry = nil
                l.watchdog.disarm()
            }
            _ = collectWritten(&l)
            return (l.expiry, l.delivery.discardAll())
        }
        expiry?.cancel()
        countDropped(lost)
        failRequests(with: .connectionClosed(ConnectionEnd(code: 1000, reason: "session closed")))
        withRequests { $0.disarm() }?.cancel()
        responses.forgetAll()
    }

    // MARK: - Delivery

    /// What ``deliver(_:)`` did.
    enum Delivered {
        /// Handed to the bound connection and kept until released.
        case handed
        /// No connection is bound: nothing was handed.
        case noConnection
        /// Handing them would keep more than ``JSONRPCServer/Configuration/maxUnacknowledgedBytes`` unreleased:
        /// nothing was handed, and the session must end (close ``ServerSession/overflowEnd``).
        case overflow
    }

    /// The close of a session that kept too much unreleased: 4410, which a client reconnects after; it then finds the
    /// session gone (40007) and starts again (docs/wire-protocol.md#delivery).
    package static let overflowEnd = ConnectionEnd(code: 4410, reason: "session ended: too many unacknowledged notifications")

    /// Hands `texts`, in order, to the bound connection, numbering each and keeping it until released; synchronous
    /// and cheap, so an outbox can call it under its own lock. A connection that is closing keeps them too: its end
    /// unbinds the session, and a resume hands them again.
    func deliver(_ texts: some Collection<String>) -> Delivered {
        link.withLock { l -> Delivered in
            guard let binding = l.binding else { return .noConnection }
            _ = collectWritten(&l)
            let adding = texts.reduce(0) { $0 + $1.utf8.count }
            // A lone notification always goes (an empty log never overflows).
            if !l.delivery.log.isEmpty, l.delivery.bytes + adding > byteLimit { return .overflow }
            for text in texts { l.delivery.handed(text) }
            hand(texts, to: binding, mode: l.delivery.mode, epoch: l.epoch)
            return .handed
        }
    }

    /// The client acknowledged every notification up to `received` (`rpc.ack`, or `received` in a `ping`).
    func acknowledge(_ received: UInt64) {
        link.withLock { _ = $0.delivery.acknowledge(received) }
    }

    /// Notifications handed and not released (what a slow or silent client holds up).
    var unreleased: Int {
        link.withLock { l in
            _ = collectWritten(&l)
            return l.delivery.log.count
        }
    }

    /// Hands `texts` to `binding`'s connection; each write is reported to `reports` for `epoch` (with
    /// ``SessionDelivery/Mode/written``, or with metrics on: they count it as sent then). Stops at the first refusal (the connection is closing: the texts stay kept).
    private func hand(_ texts: some Collection<String>, to binding: ConnectionBinding, mode: SessionDelivery.Mode,
                      epoch: UInt64) {
        let reports = reports, outbox = metrics?.outbox
        for text in texts {
            do {
                // Write reports release in written mode, and count what was sent for the metrics in both.
                if mode == .written || outbox != nil {
                    try binding.connection.enqueue(text) { end in
                        guard end == nil else { return }
                        let current = reports.withLock { r -> Bool in
                            guard r.epoch == epoch else { return false }
                            r.written += 1
                            return true
                        }
                        // Released now as far as operators are concerned (the log forgets it at its next look).
                        if current, let outbox {
                            outbox.sent.increment()
                            outbox.depth.decrement()
                        }
                    }
                } else {
                    try binding.connection.enqueue(text, whenWritten: nil)
                }
            } catch {
                return
            }
        }
    }

    /// Takes what the bound connection reported written since the last look (released in
    /// ``SessionDelivery/Mode/written``); the metrics counted each one when it was reported.
    private func collectWritten(_ l: inout Link) -> Int {
        let written = reports.withLock { r -> Int in
            defer { r.written = 0 }
            return r.epoch == l.epoch ? r.written : 0
        }
        return l.delivery.written(written)
    }

    private func startReports(epoch: UInt64) {
        reports.withLock { $0 = WriteReports(epoch: epoch) }
    }

    /// Counts `count` notifications that no connection will write now (the session ended) as dropped
    /// (docs/operations.md#metrics).
    private func countDropped(_ count: Int) {
        guard let outbox = metrics?.outbox, count > 0 else { return }
        outbox.dropped.increment(by: count)
        outbox.depth.decrement(by: Double(count))
    }

    // MARK: - Watchdog

    /// Reads and changes the ping watchdog under the session's lock.
    func withWatchdog<T>(_ body: (inout PingWatchdog) -> T) -> T {
        link.withLock { body(&$0.watchdog) }
    }
}

extension ServerSession: RequestTableOwner {
    func withRequests<T>(_ body: (inout RequestTable) -> T) -> T { link.withLock { body(&$0.requests) } }
}

/// One accepted connection, compared by identity (a `MessageConnection` may be a struct), and who it speaks for.
final class ConnectionBinding: Sendable {
    let connection: any MessageConnection
    /// ``JSONRPCServer/Configuration/principal`` of the connection.
    let principal: String?
    init(_ connection: any MessageConnection, principal: String? = nil) {
        self.connection = connection
        self.principal = principal
    }
}
