import CoreMetrics
import Dispatch

/// A Redis connection for commands, usable from any task: each command runs on the connection's own serial queue
/// (hiredis blocks; the cooperative pool never does), in call order, within `timeout`. A command that finds Redis
/// gone fails with ``RedisError/unavailable(_:)`` at once or when `timeout` passes, never later; the next command
/// connects again.
public final class RedisConnection: @unchecked Sendable {
    // @unchecked: `context` is read and written only on `queue`, a serial queue.
    private let queue = DispatchQueue(label: "RoomCluster.RedisConnection")
    private var context: HiredisContext?
    /// Where Redis is.
    public let url: RedisURL
    /// The bound on connecting and on each command's round trip.
    public let timeout: Duration
    /// Where each round trip's time goes (``ClusterMetrics/redisRoundTrip``), if anywhere.
    private let roundTrip: CoreMetrics.Timer?

    /// A connection to `url`; it connects on the first command.
    public convenience init(url: RedisURL, timeout: Duration = .seconds(2)) {
        self.init(url: url, timeout: timeout, roundTrip: nil)
    }

    /// A connection whose round trips (connecting included) are recorded by `roundTrip`.
    init(url: RedisURL, timeout: Duration, roundTrip: CoreMetrics.Timer?) {
        self.url = url
        self.timeout = timeout
        self.roundTrip = roundTrip
    }

    /// Runs one command (`["HSETNX", key, field, value]`) and returns its reply.
    public func command(_ arguments: [String]) async throws(RedisError) -> RedisReply {
        try await run { context throws(RedisError) in try context.command(arguments) }
    }

    /// Runs one command.
    public func command(_ arguments: String...) async throws(RedisError) -> RedisReply {
        try await command(arguments)
    }

    /// Queues a command and returns at once; synchronous, so a caller can queue under its own lock and commands
    /// reach Redis in the order they were queued. `completion` (if any) gets the outcome on the connection's queue.
    public func send(_ arguments: [String], completion: (@Sendable (Result<RedisReply, RedisError>) -> Void)? = nil) {
        queue.async {
            let result = self.onQueue { context throws(RedisError) in try context.command(arguments) }
            completion?(result)
        }
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

    /// Closes the socket; a later command connects again.
    public func close() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.async {
                self.context = nil
                done.resume()
            }
        }
    }

    private func run(_ body: @escaping @Sendable (HiredisContext) throws(RedisError) -> RedisReply)
        async throws(RedisError) -> RedisReply
    {
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<RedisReply, RedisError>, Never>) in
            queue.async {
                done.resume(returning: self.onQueue(body))
            }
        }
        return try result.get()
    }

    /// On `queue`: connects if needed, runs `body`; drops the context after an I/O failure. A connection that
    /// Redis closed while idle (a restart) fails the first command sent on it without Redis having seen it: that
    /// one command is sent again on a new connection. A timeout is never retried (Redis may have run it).
    private func onQueue(_ body: (HiredisContext) throws(RedisError) -> RedisReply) -> Result<RedisReply, RedisError> {
        guard let roundTrip else { return attempt(body) }
        let start = ContinuousClock.now
        defer {
            let (seconds, attoseconds) = (ContinuousClock.now - start).components
            roundTrip.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }
        return attempt(body)
    }

    /// ``onQueue(_:)`` without the measurement.
    private func attempt(_ body: (HiredisContext) throws(RedisError) -> RedisReply) -> Result<RedisReply, RedisError> {
        let reused = context != nil
        do throws(RedisError) {
            if context == nil { context = try HiredisContext(url: url, timeout: timeout) }
            return .success(try body(context!))
        } catch {
            guard case .unavailable(let reason) = error else { return .failure(error) }
            context = nil
            guard reused, Self.closedByPeer(reason) else { return .failure(error) }
            do throws(RedisError) {
                context = try HiredisContext(url: url, timeout: timeout)
                return .success(try body(context!))
            } catch {
                if case .unavailable = error { context = nil }
                return .failure(error)
            }
        }
    }

    /// Whether hiredis's error says the peer closed the connection (not a timeout).
    static func closedByPeer(_ reason: String) -> Bool {
        ["Server closed the connection", "Connection reset by peer", "Broken pipe"].contains { reason.contains($0) }
    }
}
