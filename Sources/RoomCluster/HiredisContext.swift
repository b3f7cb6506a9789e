import CHiredis
import RoomClusterCore
#if canImport(Glibc)
import Glibc
#endif

/// One hiredis connection: connect (with `AUTH` and `SELECT`), run commands, read pushed replies. hiredis blocks,
/// so a context is used by one thread at a time, never on the cooperative pool (``RedisConnection`` runs it on a
/// serial queue, ``RedisSubscriber`` on a thread of its own).
final class HiredisContext {
    private let context: UnsafeMutablePointer<redisContext>
    /// The socket, for `poll`.
    let fd: Int32

    /// Connects to `url` within `timeout`, which also bounds every later read and write.
    init(url: RedisURL, timeout: Duration) throws(RedisError) {
        let tv = Self.timeval(timeout)
        guard let context = redisConnectWithTimeout(url.host, Int32(url.port), tv) else {
            throw .unavailable("cannot allocate a Redis context")
        }
        if context.pointee.err != 0 {
            let reason = Self.errorText(context)
            redisFree(context)
            throw .unavailable("cannot connect to \(url.host):\(url.port): \(reason)")
        }
        redisSetTimeout(context, tv)
        redisEnableKeepAlive(context)
        self.context = context
        fd = context.pointee.fd
        if let password = url.password {
            _ = try command(url.user.map { ["AUTH", $0, password] } ?? ["AUTH", password])
        }
        if url.database != 0 { _ = try command(["SELECT", String(url.database)]) }
    }

    deinit { redisFree(context) }

    /// Runs one command and returns its reply. An I/O failure or a timeout leaves the context unusable (throw away).
    func command(_ arguments: [String]) throws(RedisError) -> RedisReply {
        try append(arguments)
        var raw: UnsafeMutableRawPointer?
        guard redisGetReply(context, &raw) == REDIS_OK, let raw else {
            throw .unavailable(Self.errorText(context))
        }
        defer { freeReplyObject(raw) }
        return try RedisReply.from(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// Queues a command for ``flush()`` (pipelining, or a `PING` on a subscribed connection).
    func append(_ arguments: [String]) throws(RedisError) {
        let bytes = arguments.map { Array($0.utf8) }
        var lengths = bytes.map(\.count)
        let copies = bytes.map { argument -> UnsafeMutablePointer<CChar> in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, argument.count))
            argument.withUnsafeBytes { source in
                UnsafeMutableRawPointer(copy).copyMemory(from: source.baseAddress ?? UnsafeRawPointer(copy), byteCount: argument.count)
            }
            return copy
        }
        defer { copies.forEach { $0.deallocate() } }
        var argv: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) }
        guard redisAppendCommandArgv(context, Int32(arguments.count), &argv, &lengths) == REDIS_OK else {
            throw .unavailable(Self.errorText(context))
        }
    }

    /// Writes what ``append(_:)`` queued.
    func flush() throws(RedisError) {
        var done: Int32 = 0
        while done == 0 {
            guard redisBufferWrite(context, &done) == REDIS_OK else { throw .unavailable(Self.errorText(context)) }
        }
    }

    /// A whole reply already read from the socket, if any; never blocks.
    func bufferedReply() throws(RedisError) -> RedisReply? {
        var raw: UnsafeMutableRawPointer?
        guard redisGetReplyFromReader(context, &raw) == REDIS_OK else { throw .unavailable(Self.errorText(context)) }
        guard let raw else { return nil }
        defer { freeReplyObject(raw) }
        return try RedisReply.from(raw.assumingMemoryBound(to: redisReply.self))
    }

    /// Reads what the socket has (after `poll` said it is readable); throws when the connection ended.
    func readAvailable() throws(RedisError) {
        guard redisBufferRead(context) == REDIS_OK else { throw .unavailable(Self.errorText(context)) }
    }

    /// Whether Redis closed (or reset) the socket while it was idle, seen by a zero-timeout `poll` before a command
    /// is written: readable at the end of the stream, or an error or hang-up. An idle request-reply connection has
    /// nothing to read, so anything readable means it cannot be used.
    var closedWhileIdle: Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        return descriptor.revents != 0
    }

    /// Bounds every later read and write by `timeout`.
    func setTimeout(_ timeout: Duration) {
        redisSetTimeout(context, Self.timeval(timeout))
    }

    /// Makes the coming close a TCP reset (`SO_LINGER` {1, 0}): whatever the kernel still holds for Redis is
    /// discarded rather than delivered later. Call it before dropping a context whose last command failed.
    func abort() {
        Self.setResetOnClose(fd)
    }

    /// From another thread than the one using the context: wakes a read blocked on `socket` (it reads the end of the
    /// stream) and makes its later close a reset. The descriptor must still be open (its context not freed).
    static func abort(socket: Int32) {
        setResetOnClose(socket)
        shutdown(socket, Int32(SHUT_RD))
    }

    private static func setResetOnClose(_ socket: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        let text = withUnsafeBytes(of: context.pointee.errstr) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "connection lost" : text
    }

    private static func timeval(_ duration: Duration) -> Glibc.timeval {
        let (seconds, attoseconds) = duration.components
        return Glibc.timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    }
}
