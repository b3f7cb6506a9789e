import CoreMetrics
import Dispatch
public import RoomClusterCore
import SignalingSupport

/// A Redis connection for commands, usable from any task: each command runs on the connection's own serial queue
/// (hiredis blocks; the cooperative pool never does), in call order.
///
/// It fails fast rather than wait (issue 33):
/// - **A deadline from enqueue.** Each command has `timeout` from the moment it is queued: one still waiting when
/// its deadline passed fails with ``/RoomClusterCore/ClusterError/unavailable(_:)`` without being sent, and one being
/// sent or read gets only what is left of it. A command that timed out after it was written ends its socket with a TCP
/// reset (`SO_LINGER` {1, 0}), so bytes the kernel still held for Redis are never delivered later.
/// - **A bounded queue.** At most `capacity` commands wait; one more fails at once.
/// - **No blind retry.** A command is written once: a failure after the write is reported, never retried (Redis
///   may have run it). Before writing on a socket that sat idle, a zero-timeout `poll` checks Redis did not close
///   it meanwhile (a restart); such a socket is replaced first.
/// - **Known lost.** After a connect or I/O failure the connection is *lost*: every command waiting fails at once,
///   and so does every new one, except one per `reconnectInterval`, which first dials again and checks Redis
///   answers a `PING` within half a second (``reconnect()`` makes that attempt at once). Only when it does does the
///   connection serve commands again.
public final class RedisConnection: @unchecked Sendable {
    // @unchecked: `context` is read and written only on `queue`, a serial queue; everything else is in `state`.
    private let queue = DispatchQueue(label: "RoomCluster.RedisConnection")
    private var context: HiredisContext?
    /// Where Redis is.
    public let url: RedisURL
    /// Each command's deadline, counted from when it is queued (connecting included).
    public let timeout: Duration
    /// The most commands that wait at once; one more fails with ``/RoomClusterCore/ClusterError/unavailable(_:)`` at
    /// once.
    public let capacity: Int
    /// While Redis is known lost, the least time between two attempts to reach it again.
    public let reconnectInterval: Duration
    /// The bound on an attempt to reach Redis again: a dial and a `PING`.
    static let probeTimeout: Duration = .milliseconds(500)
    /// Where each round trip's time goes (``ClusterMetrics/redisRoundTrip``), if anywhere.
    private let roundTrip: CoreMetrics.Timer?

    private typealias Completion = @Sendable (Result<RedisReply, RedisError>) -> Void
    private typealias Body = @Sendable (HiredisContext) throws(RedisError) -> RedisReply
    private struct Waiting {
        let deadline: ContinuousClock.Instant
        let completion: Completion
    }
    private struct State {
        /// Commands queued and not yet taken by the queue, by number.
        var waiting: [UInt64: Waiting] = [:]
        var next: UInt64 = 0
        /// Why Redis is known lost, while it is.
        var lost: String?
        /// When a command last tried to reach Redis again (or when it was lost).
        var lastAttempt: ContinuousClock.Instant?
        /// The command that tries to reach Redis again, while one is queued.
        var attempt: UInt64?
        /// The socket of the command being sent or read, so that ``lose(_:)`` can abort it.
        var socket: Int32?
        /// Told once each time the connection becomes lost.
        var onLoss: (@Sendable (String) -> Void)?
    }
    private let state = LockedValue(State())

    /// A connection to `url`; it connects on the first command.
    public convenience init(url: RedisURL, timeout: Duration = .seconds(2), capacity: Int = 1024) {
        self.init(url: url, timeout: timeout, capacity: capacity, roundTrip: nil)
    }

    /// A connection whose round trips (connecting included) are recorded by `roundTrip`.
    init(url: RedisURL, timeout: Duration, capacity: Int = 1024, reconnectInterval: Duration = .milliseconds(250),
         roundTrip: CoreMetrics.Timer?) {
        self.url = url
        self.timeout = timeout
        self.capacity = max(1, capacity)
        self.reconnectInterval = reconnectInterval
        self.roundTrip = roundTrip
    }

    /// The number of commands waiting to be sent.
    public var queued: Int { state.withLock { $0.waiting.count } }

    /// Whether Redis is known lost (commands fail at once until an attempt to reach it again succeeds).
    public var isLost: Bool { state.withLock { $0.lost != nil } }

    /// Runs one command (`["HSETNX", key, field, value]`) and returns its reply.
    public func command(_ arguments: [String]) async throws(RedisError) -> RedisReply {
        try await run { context throws(RedisError) in try context.command(arguments) }
    }

    /// Runs one command.
    public func command(_ arguments: String...) async throws(RedisError) -> RedisReply {
        try await command(arguments)
    }

    /// Queues a command and returns at once; synchronous, so a caller can queue under its own lock and commands
    /// reach Redis in the order they were queued. False when it was refused at once (the queue is full, or Redis
    /// is known lost); `completion` (if any) gets the outcome either way, on the connection's queue or at once.
    @discardableResult
    public func send(_ arguments: [String], completion: (@Sendable (Result<RedisReply, RedisError>) -> Void)? = nil)
        -> Bool
    {
        enqueue({ context throws(RedisError) in try context.command(arguments) }) { completion?($0) }
    }

    /// Runs `commands` as one `MULTI`/`EXEC` transaction, with nothing of this connection's in between; returns
    /// `EXEC`'s replies (`.null` when a `WATCH`ed key changed).
    public func transaction(_ commands: [[String]]) async throws(RedisError) -> RedisReply {
        try await run { context throws(RedisError) in
            _ = try context.command(["MULTI"])
            do throws(RedisError) {
                for command in commands { _ = try context.command(command) }
            } catch {
                // A command Redis refused to queue: leave MULTI, so the connection serves the next caller.
                if case .server = error { _ = try? context.command(["DISCARD"]) }
                throw error
            }
            return try context.command(["EXEC"])
        }
    }

    /// Tries to reach Redis now (a new socket and a `PING`), even if the last attempt was less than
    /// `reconnectInterval` ago; the connection serves commands again when it succeeds.
    public func reconnect() async throws(RedisError) {
        _ = try await run(attempting: true) { context throws(RedisError) in try context.command(["PING"]) }
    }

    /// Closes the socket; a later command connects again.
    public func close() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.async {
                self.context = nil
                done.resume()
            }
        }
    }

    /// Calls `observer` each time the connection becomes lost, with why (not on the queue's thread of a caller).
    func onLoss(_ observer: @escaping @Sendable (String) -> Void) { state.withLock { $0.onLoss = observer } }

    /// Marks Redis lost (another connection or the subscriber found it gone): the command being sent or read is
    /// aborted, the waiting ones fail at once, and so do new ones until an attempt to reach Redis again succeeds.
    func lose(_ reason: String) {
        let (failed, observer) = state.withLock { s -> ([Waiting], (@Sendable (String) -> Void)?) in
            guard s.lost == nil else { return ([], nil) }
            s.lost = reason
            s.lastAttempt = .now
            let failed = s.waiting.filter { $0.key != s.attempt }.map(\.value)
            s.waiting = s.waiting.filter { $0.key == s.attempt }
            // The command in flight: wake its blocked read; the queue then closes the socket with a reset.
            if let socket = s.socket { HiredisContext.abort(socket: socket) }
            return (failed, s.onLoss)
        }
        for waiting in failed { waiting.completion(.failure(.unavailable(reason))) }
        observer?(reason)
    }

    private func run(attempting: Bool = false, _ body: @escaping Body) async throws(RedisError) -> RedisReply {
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<RedisReply, RedisError>, Never>) in
            enqueue(attempting: attempting, body) { done.resume(returning: $0) }
        }
        return try result.get()
    }

    /// Admits a command (or refuses it at once) and queues it.
    @discardableResult
    private func enqueue(attempting: Bool = false, _ body: @escaping Body, completion: @escaping Completion) -> Bool {
        let now = ContinuousClock.now
        let admitted = state.withLock { s -> Result<UInt64, RedisError> in
            var attempts = attempting
            if let reason = s.lost, !attempting {
                // Known lost: one command per reconnectInterval tries again; the others fail at once.
                let due = s.lastAttempt.map { now - $0 >= reconnectInterval } ?? true
                guard s.attempt == nil, due else { return .failure(.unavailable(reason)) }
                attempts = true
            }
            guard s.waiting.count < capacity else {
                return .failure(.unavailable("more than \(capacity) Redis commands waiting"))
            }
            s.next += 1
            s.waiting[s.next] = Waiting(deadline: now + timeout, completion: completion)
            if attempts {
                s.attempt = s.next
                s.lastAttempt = now
            }
            return .success(s.next)
        }
        switch admitted {
        case .failure(let error):
            completion(.failure(error))
            return false
        case .success(let number):
            queue.async { self.execute(number, body) }
            return true
        }
    }

    /// On `queue`: runs command `number` unless it already failed.
    private func execute(_ number: UInt64, _ body: Body) {
        guard let waiting = state.withLock({ $0.waiting.removeValue(forKey: number) }) else { return }
        let result: Result<RedisReply, RedisError>
        if let roundTrip {
            let start = ContinuousClock.now
            result = perform(number, until: waiting.deadline, body)
            let (seconds, attoseconds) = (ContinuousClock.now - start).components
            roundTrip.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        } else {
            result = perform(number, until: waiting.deadline, body)
        }
        waiting.completion(result)
    }

    /// On `queue`: connects if needed (a fresh socket and a `PING` for an attempt to reach Redis again), runs `body`
    /// within what is left of `deadline`, and marks the connection lost after a connect or I/O failure.
    private func perform(_ number: UInt64, until deadline: ContinuousClock.Instant, _ body: Body)
        -> Result<RedisReply, RedisError>
    {
        let attempting = state.withLock { $0.attempt == number }
        defer { if attempting { state.withLock { if $0.attempt == number { $0.attempt = nil } } } }
        do throws(RedisError) {
            let context = try ready(attempting: attempting, deadline: deadline)
            if attempting { state.withLock { $0.lost = nil } }
            return .success(try send(body, on: context, deadline: deadline))
        } catch {
            // Never sent again: once written, Redis may have run it (a reply cut short by a reset, say).
            guard case .unavailable(let reason) = error else { return .failure(error) }
            abortContext()
            lose(reason)
            return .failure(error)
        }
    }

    /// On `queue`: the context to send on, dialled within what is left of `deadline` when there is none (and always
    /// for an attempt to reach Redis again, which also checks Redis answers a `PING` within ``probeTimeout``).
    private func ready(attempting: Bool, deadline: ContinuousClock.Instant) throws(RedisError) -> HiredisContext {
        if attempting { abortContext() }
        // A socket Redis closed while it was idle (a restart, its `timeout`) is replaced before anything is written
        // on it; that is the only case where a command goes out on a second socket: the first never carried it.
        if let context, context.closedWhileIdle { self.context = nil }
        if let context { return context }
        let budget = try remaining(until: deadline)
        let fresh = try HiredisContext(url: url, timeout: attempting ? min(budget, Self.probeTimeout) : budget)
        context = fresh
        if attempting { _ = try fresh.command(["PING"]) }
        return fresh
    }

    /// On `queue`: runs `body` on `context` with what is left of `deadline` as its socket timeout.
    private func send(_ body: Body, on context: HiredisContext, deadline: ContinuousClock.Instant)
        throws(RedisError) -> RedisReply
    {
        context.setTimeout(try remaining(until: deadline))
        state.withLock { $0.socket = context.fd }
        defer { state.withLock { $0.socket = nil } }
        return try body(context)
    }

    /// What is left until `deadline`; throws when (almost) nothing is (a zero socket timeout would block forever).
    private func remaining(until deadline: ContinuousClock.Instant) throws(RedisError) -> Duration {
        let left = deadline - .now
        guard left >= .milliseconds(1) else {
            throw .unavailable("no answer from Redis within \(timeout) (the command was not sent)")
        }
        return left
    }

    /// On `queue`: drops the context with a TCP reset, so nothing it still held is delivered later.
    private func abortContext() {
        context?.abort()
        context = nil
    }
}
