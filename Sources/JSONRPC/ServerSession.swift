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
    let pending: PendingRequests
    /// The bound connection and the reconnection window's timer, which change together
    /// (docs/architecture.md#server-sessions).
    private let binding: LockedValue<Binding>
    private let ids = SequentialIDs()
    private let requestTimeout: Duration
    private let closesAfterReply = LockedValue([RequestID: ConnectionEnd]())
    /// The ping watchdog: the declared interval and the timer that fires after 3 × it without a ping.
    let watchdog = LockedValue(PingWatchdog())
    /// Ends the session at its server (as `closeSession` does).
    private let ender: @Sendable (ServerSession) -> Void
    /// Where the server's end and resume handlers run for this session: off the service thread, in order.
    let handlers = SessionHandlerQueue()
    /// The server's instruments, if on (the session's outboxes count through them).
    let metrics: ServerMetrics?

    init(binding: ConnectionBinding, configuration: JSONRPCServer.Configuration, budget: ResponseCacheBudget,
         metrics: ServerMetrics?, end: @escaping @Sendable (ServerSession) -> Void) {
        id = SecureID.hex(bits: 128)
        principal = binding.principal
        self.metrics = metrics
        ender = end
        self.binding = LockedValue(Binding(bound: binding))
        responses = ResponseCache(clock: configuration.clock, retention: configuration.duplicateRetention,
                                  limit: configuration.maxRememberedResponses, budget: budget)
        pending = PendingRequests(clock: configuration.clock, retries: configuration.retries)
        requestTimeout = configuration.requestTimeout
    }

    public var description: String { "session \(SecureID.redacted(id))" }

    /// The session as every log line names it, `session=<redacted id>` (docs/operations.md#logs): its id's first
    /// characters, never the id.
    package var redactedID: String { SecureID.redacted(id) }

    /// The connection bound to the session now, if any: applications read what the transport knows about the
    /// peer from it (e.g. a `WebSocketMessageConnection`'s upgrade request, for auth).
    public var connection: (any MessageConnection)? { binding.withLock { $0.bound?.connection } }

    /// The binding of the connection bound now, if any (outboxes hand their notifications to it).
    var currentBinding: ConnectionBinding? { binding.withLock { $0.bound } }

    /// Whether a connection is bound to the session now.
    public var isConnected: Bool { binding.withLock { $0.bound != nil } }

    /// Sends a notification to the client.
    /// - Throws: ``RPCError/connectionClosed(_:)`` when no connection is bound or it has ended.
    public func notify(_ method: String, params: JSONValue? = nil) async throws {
        try await transmit(RPCMessage.notification(RPCNotification(method: method, params: params)).jsonText)
    }

    /// Sends a request to the client and returns its result (timeout ``JSONRPCServer/Configuration/requestTimeout``
    /// unless given).
    public func call(_ method: String, params: JSONValue? = nil, timeout: Duration? = nil) async throws -> JSONValue {
        let id = RequestID.number(ids.next())
        let text = RPCRequest(id: id, method: method, params: params).jsonText
        let outcome = pending.register(id: id, method: method, text: text, timeout: timeout ?? requestTimeout) {
            [weak self] text in try await self?.transmit(text)
        }
        return try await withTaskCancellationHandler {
            do {
                try await transmit(text)
            } catch {
                pending.complete(id, with: .failure(error as? RPCError ?? .connectionClosed(nil)))
            }
            return try await outcome.wait().get()
        } onCancel: {
            pending.complete(id, with: .failure(.cancelled))
        }
    }

    /// Closes the session's current connection.
    public func close(code: UInt16 = 1000, reason: String = "") async {
        await binding.withLock { $0.bound }?.connection.close(code: code, reason: reason)
    }

    /// Ends the session for good, as `closeSession` would, then closes its current connection (if any) with `code`
    /// and `reason`: the server's ``JSONRPCServer/whenSessionEnds(_:)`` handlers run, and a later
    /// `connect{sessionId}` naming it gets 40007 (docs/wire-protocol.md#sessions). Ending an ended session does nothing
    /// more.
    public func end(code: UInt16 = 1000, reason: String = "") async {
        ender(self)
        await close(code: code, reason: reason)
    }

    /// Asks the server to close the connection that carried request `id` with `code` and `reason` once the reply
    /// to it has been sent (Room's `leaveRoom`: reply first, then close with 1000). Call it from that request's
    /// handler; it has no effect on notifications. Inside a batch the connection closes after the batch's reply.
    public func closeAfterReply(to id: RequestID, code: UInt16 = 1000, reason: String = "") {
        closesAfterReply.withLock { $0[id] = ConnectionEnd(code: code, reason: reason) }
    }

    func takeCloseAfterReply(_ id: RequestID) -> ConnectionEnd? {
        closesAfterReply.withLock { $0.removeValue(forKey: id) }
    }

    func transmit(_ text: String) async throws {
        guard let current = binding.withLock({ $0.bound?.connection }) else { throw RPCError.connectionClosed(nil) }
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

    /// Binds `new` (a `connect{sessionId}` from another socket) and returns the connection it replaces. The
    /// reconnection window's timer stops in the same step: no expiry armed for an unbound moment survives it.
    func attach(_ new: ConnectionBinding) -> ConnectionBinding? {
        let (replaced, timer) = binding.withLock { s -> (ConnectionBinding?, (any TimerHandle)?) in
            defer {
                s.bound = new
                s.disarmExpiry()
            }
            return (s.bound, s.expiry)
        }
        timer?.cancel()
        return replaced
    }

    /// Unbinds `old` if it is still the bound connection: the session's server→client requests fail, and the
    /// session expires after `window` unless a `connect` re-binds it. Returns whether `old` was bound.
    ///
    /// The unbind and the expiry it arms belong together: the expiry carries the token of this unbind, is kept only
    /// while the session is still unbound by it, and when it fires it ends the session only if that still holds, so
    /// a resume (``attach(_:)``) at any moment in between keeps the session alive.
    func detach(_ old: ConnectionBinding, end: ConnectionEnd, window: Duration, clock: any SignalingClock,
                expire: @escaping @Sendable () -> Void) -> Bool {
        let token = binding.withLock { s -> UInt64? in
            guard let bound = s.bound, bound === old else { return nil }
            s.bound = nil
            return s.disarmExpiry()
        }
        guard let token else { return false }
        disarmWatchdog()
        pending.failAll(with: .connectionClosed(end))
        let timer = clock.schedule(after: window) { [weak self] in
            if self?.expiryDue(token) == true { expire() }
        }
        let stale = binding.withLock { s -> Bool in
            guard s.bound == nil, s.expiryToken == token else { return true }
            s.expiry = timer
            return false
        }
        if stale { timer.cancel() }
        return true
    }

    /// Whether the expiry armed with `token` may end the session now: it is still unbound since then.
    private func expiryDue(_ token: UInt64) -> Bool {
        binding.withLock { s in
            guard s.bound == nil, s.expiryToken == token else { return false }
            s.expiry = nil
            return true
        }
    }

    /// Ends the session for good (closeSession or expiry).
    func terminate() {
        binding.withLock { s -> (any TimerHandle)? in
            defer { s.disarmExpiry() }
            return s.expiry
        }?.cancel()
        disarmWatchdog()
        pending.failAll(with: .connectionClosed(ConnectionEnd(code: 1000, reason: "session closed")))
        responses.forgetAll()
    }
}

/// A session's bound connection and its reconnection window's timer, under one lock.
private struct Binding {
    var bound: ConnectionBinding?
    /// The window's timer, armed while unbound.
    var expiry: (any TimerHandle)?
    /// Counts the arming and disarming of the expiry: a timer fires to effect only with the token it was armed with.
    var expiryToken: UInt64 = 0

    /// Forgets the expiry (the caller cancels it outside the lock) and returns the token of the next one.
    @discardableResult
    mutating func disarmExpiry() -> UInt64 {
        expiry = nil
        expiryToken &+= 1
        return expiryToken
    }
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
