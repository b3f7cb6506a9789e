import CLibWebSockets
public import Logging
import SignalingSupport
#if canImport(Glibc)
import Glibc
#endif

/// The libwebsockets event loop: one `lws_context` served by one dedicated thread
/// (docs/architecture.md#service-thread).
///
/// Every client and server in the process shares ``shared`` unless it is given another loop, so a thousand
/// connections cost one thread. Other threads never call lws: they post closures to a locked mailbox and wake
/// the service thread with `lws_cancel_service`, the one lws call that is safe from any thread
/// (docs/libwebsockets.md#threads).
public final class WebSocketEventLoop: @unchecked Sendable {
    // @unchecked: the fields below the "service thread only" mark are touched only on the service thread
    // (inside lws callbacks, mailbox closures, or before the thread starts / after it ends). The fields above it
    // are immutable or lock-guarded.

    /// The process-wide loop. It lives as long as the process. Should libwebsockets fail to start it, every
    /// connect and server start on it throws ``TransportError/eventLoopUnavailable(_:)``.
    public static let shared = WebSocketEventLoop(configuration: .init(), serverReleaseGrace: .seconds(30))

    /// Closures and task jobs for the service thread (``ServiceMailbox``).
    let mailbox = ServiceMailbox()
    /// Runs tasks on the service thread (see ``WebSocketEventLoopExecutor``).
    public let executor: WebSocketEventLoopExecutor
    private let threadInfo = LockedValue<(tid: Int32, exited: Bool, waiters: [CheckedContinuation<Void, Never>])>((0, false, []))
    private let logSink: LWSLogSink
    let configuration: WebSocketEventLoopConfiguration

    private let backendInUse = LockedValue(EventBackend.poll)

    // --- service thread only ---
    private(set) var context: OpaquePointer!
    /// The libev loop the service thread runs (``EventBackend/libev``); nil on lws's poll() loop.
    private var libev: LibevLoop?
    let strings = CStringStore()
    /// Where every connection of this loop puts a frame's bytes for `lws_write` (``WriteScratch``).
    private(set) lazy var writeScratch = WriteScratch()
    /// Connection cores alive on this loop. Their `lws` opaque pointers are unretained; this dictionary owns them
    /// until `LWS_CALLBACK_WSI_DESTROY`.
    var cores: [ObjectIdentifier: ConnectionCore] = [:]
    /// The connection sweep: keep-alive and close deadlines (``sweepTick()``).
    var sweepTimer = SweepTimer()
    /// Client vhosts by TLS trust; `nil` is the plain `ws://` one.
    var clientVhosts: [TLSClientConfiguration?: OpaquePointer] = [:]
    /// Listening servers; their vhost user pointers are unretained, so this owns them until the vhost is gone.
    var servers: [UnsafeMutableRawPointer: ServerCore] = [:]
    var protocolTables: [UnsafeMutablePointer<lws_protocols>] = []
    /// ``retryPolicy``, made on first use; its retry table is freed with it.
    var retryPolicyStorage: UnsafeMutablePointer<lws_retry_bo_t>?
    var vhostCounter = 0
    /// The CA directories and the policy of the client vhost being created, for `clientTLSContextReady(_:)`.
    var pendingCADirectory: String?
    var pendingClientPolicy: TLSCipherPolicy?
    /// The server whose TLS vhost is being created, for `serverTLSContextReady(_:)`.
    var pendingServer: ServerCore?
    /// Why OpenSSL refused the TLS settings of the vhost being created.
    var pendingTLSFailure: String?
    /// The name of protocol 0 of every vhost, kept for the life of the loop.
    private(set) lazy var defaultProtocolName: UnsafePointer<CChar> = strings.keep("ks-default")

    /// How long a shut-down server's bookkeeping outlives its vhost (see `ServerCore.destroyVhost`).
    let serverReleaseGrace: Duration

    /// Creates a loop with its own context and service thread. Most programs use ``shared`` instead.
    /// - Throws: ``TransportError/eventLoopUnavailable(_:)`` when libwebsockets cannot create its context or
    ///   client vhost, or the service thread cannot start; lws's own reason goes to the configured logger.
    public convenience init(configuration: WebSocketEventLoopConfiguration = .init()) throws(TransportError) {
        self.init(configuration: configuration, serverReleaseGrace: .seconds(30))
        if let failure = startFailure { throw failure }
    }

    /// Creates and starts a loop; a loop that could not start refuses all work with the reason.
    init(configuration: WebSocketEventLoopConfiguration = .init(), serverReleaseGrace: Duration) {
        self.configuration = configuration
        self.serverReleaseGrace = serverReleaseGrace
        executor = WebSocketEventLoopExecutor(mailbox: mailbox)
        logSink = LWSLogSink(logger: configuration.logger)
        do throws(TransportError) {
            try start()
        } catch {
            refuseWork(error)
            threadInfo.withLock { $0.exited = true }
            logSink.retire()
        }
    }

    /// Why the loop could not start, if it could not.
    /// The most connections this loop holds; a server refuses more at once (`LWS_CALLBACK_FILTER_NETWORK_CONNECTION`).
    private(set) var socketLimit = Int.max

    /// How many connections a loop may hold under the process's descriptor limit: the limit (at most 65,536) less a
    /// reserve of 1/64 of it, at least 64, that stays for everything else the process opens. Accepting up to the
    /// full limit ended in EMFILE, and then the next `open` anywhere failed: libdispatch's worker monitor aborts the
    /// process when it cannot open `/proc/<tid>/stat` ("workq: registered worker exited prematurely"), as a
    /// room-server with 15,000 clients did in `make bench`'s scale row (docs/libwebsockets.md#service-loop).
    static func socketLimit(descriptorLimit: rlim_t) -> Int {
        let limit = Int(min(descriptorLimit, 65536))
        return max(limit - max(64, limit / 64), 16)
    }

    private var startFailure: TransportError? {
        threadInfo.withLock { $0.exited } ? mailbox.refusal : nil
    }

    /// Creates the context and the default client vhost, then starts the service thread.
    private func start() throws(TransportError) {
        var info = lws_context_creation_info()
        info.port = CONTEXT_PORT_NO_LISTEN
        info.gid = -1
        info.uid = -1
        info.timeout_secs = 20
        // lws sizes its fd table from this; the reserve under it is ours, at accept (docs/libwebsockets.md#service-loop,
        // docs/architecture.md#service-thread).
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        info.fd_limit_per_thread = UInt32(min(max(UInt64(limit.rlim_cur), 1024), 65536))
        socketLimit = Self.socketLimit(descriptorLimit: limit.rlim_cur)
        info.user = Unmanaged<WebSocketEventLoop>.passUnretained(self).toOpaque()
        if configuration.refusedByLWSForTesting {
            info.ka_time = 1  // lws: "info->ka_interval can't be 0 if ka_time used"
            info.ka_interval = 0
        }
        // lws logs while it builds the context and the vhost: route those lines from this thread too.
        let previousSink = logSink.install()
        defer { LWSLogSink.restore(previousSink) }
        var libev = configuration.backend == .libev ? LibevLoop() : nil
        let created = SSLLibraryInit.creatingContext { doGlobalInit in
            let ssl = doGlobalInit ? CLWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT : 0
            let options = CLWS_SERVER_OPTION_EXPLICIT_VHOSTS | ssl
            if let ev = libev {
                info.options = UInt64(options | CLWS_SERVER_OPTION_LIBEV)
                info.foreign_loops = ev.foreignLoops
                if let context = lws_create_context(&info) { return context }
                // Most likely the plugin (Debian's libwebsockets-evlib-ev) is not installed: lws's own poll() loop.
                info.foreign_loops = nil
                ev.destroy()
                libev = nil
                configuration.logger.warning("libwebsockets could not use its libev plugin: falling back to poll()")
            }
            info.options = UInt64(options)
            return lws_create_context(&info)
        }
        guard let ctx = created else {
            libev?.destroy()
            throw .eventLoopUnavailable("libwebsockets could not create its context (the loop's logger has why)")
        }
        self.libev = libev
        backendInUse.withLock { $0 = libev == nil ? .poll : .libev }
        context = ctx
        // With explicit vhosts, `lws_cancel_service` reaches protocols of existing vhosts only: the default
        // client vhost (plain: no CA store to load) is created now, before the service thread starts, so the
        // mailbox always has a listener.
        guard clientVhost(for: nil) != nil else {
            destroyContext()
            throw .eventLoopUnavailable("libwebsockets could not create the client vhost (the loop's logger has why)")
        }
        mailbox.setContext(ctx)
        let unmanaged = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, serviceThreadEntry, unmanaged.toOpaque())
        guard rc == 0 else {
            unmanaged.release()
            mailbox.setContext(nil)
            destroyContext()
            throw .eventLoopUnavailable("cannot start the service thread: \(String(cString: strerror(rc)))")
        }
        pthread_detach(thread)
    }

    /// How the service thread waits for its sockets: the configured ``WebSocketEventLoopConfiguration/backend``, or
    /// ``EventBackend/poll`` when libev was asked for and libwebsockets' libev plugin is missing.
    public var backend: EventBackend { backendInUse.withLock { $0 } }

    /// The kernel thread id of the service thread (for diagnostics and tests).
    public var serviceThreadID: Int32 { threadInfo.withLock { $0.tid } }

    /// Where libwebsockets' log lines go (see ``WebSocketEventLoopConfiguration/logger``). Setting it takes effect
    /// at once, also on ``shared``, whose logger discards everything until set.
    public var logger: Logger {
        get { logSink.logger }
        set { logSink.logger = newValue }
    }

    /// The number of connections (client and server side) alive on this loop; 0 once it has shut down.
    public func connectionCount() async -> Int {
        (try? await onServiceThread { $0.cores.count }) ?? 0
    }

    /// Stops the loop: every connection is dropped, every server stops, and the context is destroyed. Returns
    /// once the service thread has ended. Afterwards ``WebSocketConnection/connect(to:configuration:loop:)`` and
    /// ``WebSocketServer/start(_:loop:)`` on this loop throw ``TransportError/eventLoopShutDown``. Not for ``shared``.
    public func shutdown() async {
        precondition(self !== WebSocketEventLoop.shared, "the shared event loop lives as long as the process")
        refuseWork(.eventLoopShutDown)
        mailbox.wake()
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let done = threadInfo.withLock { info -> Bool in
                if info.exited { return true }
                info.waiters.append(c)
                return false
            }
            if done { c.resume() }
        }
    }

    // MARK: Mailbox

    /// Runs `command` on the service thread, soon. Safe from any thread.
    /// - Throws: ``TransportError/eventLoopShutDown`` once the loop is shutting down (or the reason it never
    ///   started); `command` is then dropped unrun, so a caller waiting for it must be resumed by the caller.
    func submit(_ command: @escaping @Sendable () -> Void) throws(TransportError) {
        try mailbox.submit(command)
    }

    /// Runs `body` now when called on the service thread, else submits it (dropped when the loop is ending).
    /// Service thread, `LWS_CALLBACK_EVENT_WAIT_CANCELLED`: runs what other threads queued, and ends a libev
    /// loop's run once the loop is shutting down (lws's own loop checks between `lws_service` calls).
    func drainMailbox() {
        mailbox.drain()
        if let libev, mailbox.refusal != nil { libev.stop() }
    }

    func onServiceThreadSoon(_ body: @escaping @Sendable () -> Void) {
        if mailbox.isServiceThread { body() } else { try? mailbox.submit(body) }
    }

    /// Runs `body` on the service thread and returns its result.
    /// - Throws: ``TransportError/eventLoopShutDown`` at once when the loop is shutting down or has stopped.
    func onServiceThread<T: Sendable>(
        _ body: @escaping @Sendable (WebSocketEventLoop) -> T
    ) async throws(TransportError) -> T {
        let result = await withCheckedContinuation { (c: CheckedContinuation<Result<T, TransportError>, Never>) in
            do throws(TransportError) {
                try submit { [unowned self] in c.resume(returning: .success(body(self))) }
            } catch {
                c.resume(returning: .failure(error))
            }
        }
        return try result.get()
    }

    /// From now on the mailbox refuses work with `error` (the first reason given wins).
    private func refuseWork(_ error: TransportError) { mailbox.refuse(error) }

    // MARK: Service thread

    fileprivate func runServiceThread() {
        logSink.install()
        mailbox.bindServiceThread()
        threadInfo.withLock { $0.tid = clws_gettid() }
        if let libev {
            libev.run(context: context, mailbox: mailbox)  // until `drainMailbox` stops it, once the mailbox refuses work
        } else {
            mailbox.flushesWrites = true
            while mailbox.refusal == nil {
                if lws_service(context, 0) < 0 { break }
                mailbox.flushWrites()
            }
            mailbox.flushesWrites = false
            mailbox.flushWrites()
        }
        refuseWork(.eventLoopShutDown)  // also when lws_service failed: nobody would drain the mailbox again
        mailbox.setContext(nil)
        mailbox.drain()
        for server in servers.values { server.loopEnding() }
        endSweep()
        destroyContext()
        logSink.retire()
        LWSLogSink.restore(nil)
        let waiters = threadInfo.withLock { info -> [CheckedContinuation<Void, Never>] in
            info.exited = true
            defer { info.waiters = [] }
            return info.waiters
        }
        waiters.forEach { $0.resume() }
    }

    /// Destroys the context, finishes what it held and frees the C memory lws pointed at
    /// (docs/libwebsockets.md#lifetimes).
    private func destroyContext() {
        lws_context_destroy(context)  // CLOSED / WSI_DESTROY callbacks fire in here
        context = nil
        libev?.destroy()
        libev = nil
        for core in cores.values { core.finish(reason: "event loop shut down") }
        cores.removeAll()
        servers.removeAll()
        protocolTables.forEach { $0.deallocate() }
        if let policy = retryPolicyStorage {
            UnsafeMutablePointer(mutating: policy.pointee.retry_ms_table)?.deallocate()
            policy.deallocate()
        }
        protocolTables = []
        retryPolicyStorage = nil
    }
}

/// A `lws_context*` that may cross threads; only `lws_cancel_service` is ever called with it off the service
/// thread, under ``ServiceMailbox``'s wake lock.
struct ContextHandle: @unchecked Sendable {
    let raw: OpaquePointer
}

/// The service thread's entry point: a named global function (docs/libwebsockets.md#named-functions).
private func serviceThreadEntry(_ arg: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let loop = Unmanaged<WebSocketEventLoop>.fromOpaque(arg!).takeRetainedValue()
    loop.runServiceThread()
    return nil
}
