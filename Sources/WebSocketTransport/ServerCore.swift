import CLibWebSockets
import SignalingSupport
#if canImport(Glibc)
import Glibc
#endif

/// Service-thread state of one listening server: its vhost, its live connections, and the stream that hands
/// accepted connections to the application.
final class ServerCore: @unchecked Sendable {
    // @unchecked: every mutable field is touched only on the service thread; `accepted` (the stream
    // continuation) is itself Sendable.

    let loop: WebSocketEventLoop
    let configuration: WebSocketServerConfiguration
    /// The address bound: ``WebSocketServerConfiguration/host``, or the address its name resolved to
    /// (``ListenAddress/resolve(_:)``).
    let address: String
    let acceptedConnections: AsyncStream<WebSocketConnection>.Continuation

    // --- service thread ---
    var vhost: OpaquePointer?
    var connections: [ObjectIdentifier: ConnectionCore] = [:]
    var shuttingDown = false
    var drainWaiters: [CheckedContinuation<Void, Never>] = []
    var destroyWhenDrained = false
    var vhostDestroyed = false
    /// Open (and opening) connections per peer address, for ``WebSocketServerConfiguration/maxConnectionsPerAddress``.
    var perAddress: [String: Int] = [:]
    /// The address each counted connection was counted under.
    var countedAddress: [ObjectIdentifier: String] = [:]
    /// Connections whose ``WebSocketServerConfiguration/authorizeUpgrade`` has not decided yet.
    var authorizing: Set<ObjectIdentifier> = []
    /// HTTP handler responses that came too late (after the 503, or after the socket closed) and were dropped.
    var droppedHTTPResponses = 0
    /// The `SSL_CTX` of a `wss://` vhost, which lws owns and frees with the vhost; nil without TLS and once the vhost
    /// is destroyed. ``WebSocketServer/reloadCertificate()`` replaces its certificate.
    var sslContext: OpaquePointer?
    /// The round-trip probe timer: an `lws_sul` timer with this server as its owner, in C memory lws links into its
    /// timer list (docs/libwebsockets.md#round-trip-probe). Cancelled before the vhost or the context goes away.
    private var probeTimer: UnsafeMutablePointer<clws_timer>?
    private var probeScheduled = false
    /// Probe rounds so far: which share of the connections a round past ``ConnectionLimits/rttProbeLimit`` pings.
    private var probeRound = 0

    init(loop: WebSocketEventLoop, configuration: WebSocketServerConfiguration, address: String,
         accepted: AsyncStream<WebSocketConnection>.Continuation) {
        self.loop = loop
        self.configuration = configuration
        self.address = address
        self.acceptedConnections = accepted
    }

    deinit {
        // Unlinked from lws's timer list already: `destroyVhost` and `loopEnding` cancel it, and the loop keeps this
        // server until one of them has run.
        probeTimer?.deallocate()
    }

    /// Service thread: creates the listening vhost on ``address``. Returns the bound port.
    /// - Throws: ``TransportError/listenFailed(_:)`` with the reason (docs/libwebsockets.md#listening).
    func listen() throws(TransportError) -> Int {
        let strings = loop.strings
        var info = lws_context_creation_info()
        info.port = Int32(configuration.port)
        info.iface = strings.keep(address)
        info.protocols = loop.protocolTable(subprotocols: configuration.subprotocols)
        info.vhost_name = strings.keep(loop.nextVhostName("server"))
        info.user = Unmanaged.passUnretained(self).toOpaque()
        info.retry_and_idle_policy = loop.retryPolicy
        info.gid = -1
        info.uid = -1
        var options = CLWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT
        if !address.contains(":") { options |= CLWS_SERVER_OPTION_DISABLE_IPV6 }
        info.options = UInt64(options)
        if let tls = configuration.tls {
            info.ssl_cert_filepath = strings.keep(tls.certificateFile)
            info.ssl_private_key_filepath = strings.keep(tls.privateKeyFile)
            // HTTP/1.1 alone: lws would offer h2 too, which the plain-HTTP path does not serve
            // (docs/libwebsockets.md#plain-http).
            info.alpn = strings.keep("http/1.1")
        }
        loop.pendingServer = configuration.tls == nil ? nil : self
        defer { (loop.pendingServer, loop.pendingTLSFailure) = (nil, nil) }
        guard let vh = lws_create_vhost(loop.context, &info) else {
            if let failure = loop.pendingTLSFailure { throw .listenFailed("TLS: \(failure)") }
            throw .listenFailed(listenFailure())
        }
        let port = Int(lws_get_vhost_listen_port(vh))
        guard port > 0 else {
            // lws deferred the listen until an interface of that name comes up: nothing listens now.
            lws_vhost_destroy(vh)
            throw .listenFailed("\(address) is no address of this machine")
        }
        vhost = vh
        loop.servers[info.user] = self  // the vhost's user pointer is unretained: the loop keeps self alive
        return port
    }

    /// Why lws could not create the listening vhost, in words: the address's own errno (in use, not local), else
    /// the TLS files, which were readable (``WebSocketServer/start(_:loop:)`` checked) but unusable.
    private func listenFailure() -> String {
        if let reason = ListenAddress.bindFailure(address: address, port: configuration.port) { return reason }
        if let tls = configuration.tls {
            return "the TLS files \(tls.certificateFile) and \(tls.privateKeyFile) are unusable (not PEM, an "
                + "encrypted key, or a key that does not belong to the certificate)"
        }
        return "libwebsockets could not listen on \(address):\(configuration.port)"
    }

    /// `LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED`: a socket was accepted; the handshake clock starts.
    func accepted(_ wsi: OpaquePointer) {
        guard !shuttingDown else {
            lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
            return
        }
        let core = ConnectionCore(loop: loop, limits: configuration.limits)
        core.wsi = wsi
        core.server = self
        lws_set_opaque_user_data(wsi, core.unretained)
        loop.register(core)
        connections[ObjectIdentifier(core)] = core
        let timeout = configuration.handshakeTimeout
        core.handshakeTimer = SystemClock().schedule(after: timeout) { [loop] in
            try? loop.submit { core.handshakeExpired(timeout) }
        }
    }

    /// `LWS_CALLBACK_ESTABLISHED` on one of our connections: hand it to the application, once
    /// ``WebSocketServerConfiguration/authorizeUpgrade`` (if any) has accepted it.
    func established(_ core: ConnectionCore) {
        scheduleProbe()
        guard let authorize = configuration.authorizeUpgrade, let request = core.request else {
            acceptedConnections.yield(WebSocketConnection(core: core, request: core.request))
            return
        }
        let id = ObjectIdentifier(core)
        authorizing.insert(id)
        let deadline = configuration.handshakeTimeout
        let timer = SystemClock().schedule(after: deadline) { [loop] in
            try? loop.submit { [self] in authorized(core, .reject(status: 0, reason: "authorization timed out after \(deadline)")) }
        }
        Task { [loop] in
            let decision = await authorize(request)
            timer.cancel()
            try? loop.submit { [self] in authorized(core, decision) }
        }
    }

    /// Service thread: the authorizer (or its deadline) decided; the first decision wins.
    private func authorized(_ core: ConnectionCore, _ decision: UpgradeDecision) {
        guard authorizing.remove(ObjectIdentifier(core)) != nil, !core.finished, !shuttingDown else { return }
        switch decision {
        case .accept:
            acceptedConnections.yield(WebSocketConnection(core: core, request: core.request))
        case .reject(let status, let reason):
            core.beginClose(code: UpgradeDecision.closeCode(forStatus: status), reason: reason, flush: false)
        }
    }

    // MARK: TLS (service thread)

    /// Serves the PEM `certificate` chain and `key` from the next handshake on; nil, or why nothing changed.
    func replaceCertificate(_ certificate: [UInt8], _ key: [UInt8]) -> String? {
        guard let sslContext, !shuttingDown else { return "the server has stopped" }
        var reason = [CChar](repeating: 0, count: 256)
        let result = certificate.withUnsafeBufferPointer { c in
            key.withUnsafeBufferPointer { k in
                c.withMemoryRebound(to: CChar.self) { c in
                    k.withMemoryRebound(to: CChar.self) { k in
                        clws_tls_replace_certificate(sslContext, c.baseAddress, Int32(c.count), k.baseAddress,
                                                     Int32(k.count), &reason, reason.count)
                    }
                }
            }
        }
        return result == 0 ? nil : ConnectionCore.string(reason, length: Int32(reason.firstIndex(of: 0) ?? 0))
    }

    // MARK: Round-trip probe (service thread)

    /// Arms the probe timer for one ``ConnectionLimits/rttProbeInterval`` from now, unless it is armed, disabled,
    /// or the server is going away. One timer serves every connection, so an idle loop wakes once per interval.
    func scheduleProbe() {
        guard !probeScheduled, !shuttingDown, vhost != nil, let context = loop.context,
              let interval = configuration.limits.rttProbeInterval, interval > .zero else { return }
        let timer = probeTimer ?? .timer(owner: self)
        probeTimer = timer
        probeScheduled = true
        lws_sul_schedule(context, 0, timer.sul, rttProbeTimerFired, ConnectionCore.microseconds(interval))
    }

    /// The probe timer fired: the open connections ``ProbeRotation`` picks send a probe PING (at most about
    /// ``ConnectionLimits/rttProbeLimit`` and every one not probed yet). The timer is armed again while any
    /// connection is open.
    func probeTick() {
        probeScheduled = false
        let rotation = ProbeRotation(count: connections.count, limit: configuration.limits.rttProbeLimit,
                                     round: probeRound)
        probeRound &+= 1
        var anyOpen = false
        for (index, core) in connections.values.enumerated() {
            if rotation.includes(index: index, probed: core.probeSequence > 0) {
                if core.requestProbe() { anyOpen = true }
            } else if !anyOpen, core.isOpen {
                anyOpen = true
            }
        }
        if anyOpen { scheduleProbe() }
    }

    /// Unlinks the probe timer from lws's list; must run while the context lives.
    private func cancelProbe() {
        guard probeScheduled, let timer = probeTimer else { return }
        probeScheduled = false
        lws_sul_cancel(timer.sul)
    }

    /// The connections counted from `address` (O(1): the per-IP cap is checked on every upgrade).
    func connectionCount(from address: String) -> Int { perAddress[address] ?? 0 }

    /// Counts `core` under `address` until it closes.
    func count(_ core: ConnectionCore, from address: String) {
        guard countedAddress.updateValue(address, forKey: ObjectIdentifier(core)) == nil else { return }
        perAddress[address, default: 0] += 1
    }

    /// A connection of ours finished.
    func closed(_ core: ConnectionCore) {
        authorizing.remove(ObjectIdentifier(core))
        if let address = countedAddress.removeValue(forKey: ObjectIdentifier(core)) {
            let left = (perAddress[address] ?? 1) - 1
            perAddress[address] = left > 0 ? left : nil
        }
        connections[ObjectIdentifier(core)] = nil
        if connections.isEmpty && destroyWhenDrained { destroyVhost() }
        if connections.isEmpty {
            let waiters = drainWaiters
            drainWaiters = []
            waiters.forEach { $0.resume() }
        }
    }

    /// Service thread: stop accepting and close every connection with `code`; `done` runs when all have closed.
    func beginShutdown(code: WebSocketCloseCode, reason: String, waiter: CheckedContinuation<Void, Never>) {
        shuttingDown = true
        acceptedConnections.finish()
        if connections.isEmpty {
            waiter.resume()
            return
        }
        drainWaiters.append(waiter)
        // Connections still in their handshake are dropped; open ones get a close frame.
        for core in connections.values { core.beginClose(code: code.rawValue, reason: reason, flush: false) }
    }

    /// Service thread: the application released the server without shutting it down.
    func shutdownWhenDrained() {
        guard !shuttingDown else { return }
        shuttingDown = true
        acceptedConnections.finish()
        if connections.isEmpty { destroyVhost() } else { destroyWhenDrained = true }
        for core in connections.values {
            core.beginClose(code: WebSocketCloseCode.goingAway.rawValue, reason: "server released", flush: false)
        }
    }

    /// Service thread, when the loop is about to destroy its context (and with it every vhost): accept no more and
    /// end the stream of accepted connections. The loop finishes the connections, which resumes `drainWaiters`.
    func loopEnding() {
        cancelProbe()
        vhost = nil
        sslContext = nil
        shuttingDown = true
        acceptedConnections.finish()
    }

    /// Service thread: destroys the listening vhost once its connections are gone.
    func destroyVhost() {
        cancelProbe()
        guard let vh = vhost else { return }
        vhost = nil
        sslContext = nil
        vhostDestroyed = true
        lws_vhost_destroy(vh)
        // lws finishes destroying a vhost lazily and may still hand it an accepted socket meanwhile; callbacks
        // look servers up by the vhost's user pointer, so this entry stays (as a tombstone that refuses new
        // sockets) until lws is surely done, and only then may the address be reused.
        SystemClock().schedule(after: loop.serverReleaseGrace) { [self] in
            try? loop.submit { [self] in loop.servers[Unmanaged.passUnretained(self).toOpaque()] = nil }
        }
    }
}

/// The probe timer's callback, called by lws on the service thread (`lws_sul`): a named global function
/// (docs/libwebsockets.md#named-functions). The owner is the ``ServerCore``, which the loop keeps alive until the
/// timer is cancelled.
private func rttProbeTimerFired(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = clws_timer_owner(sul) else { return }
    let server = Unmanaged<ServerCore>.fromOpaque(owner).takeUnretainedValue()
    server.loop.mailbox.callback { server.probeTick() }
}
