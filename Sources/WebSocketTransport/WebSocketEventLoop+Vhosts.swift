import CLibWebSockets

/// Vhosts, protocol tables and keep-alive policies: created on the service thread, freed with the context.
extension WebSocketEventLoop {
    /// A zero-terminated protocol table: index 0 serves HTTP and subprotocol-less upgrades.
    func protocolTable(subprotocols: [String]) -> UnsafePointer<lws_protocols> {
        let names = [defaultProtocolName] + subprotocols.map { strings.keep($0) }
        let table = UnsafeMutablePointer<lws_protocols>.allocate(capacity: names.count + 1)
        for (i, name) in names.enumerated() {
            var p = lws_protocols()
            p.name = name
            p.callback = lwsCallback
            p.per_session_data_size = 0
            p.rx_buffer_size = 0
            table[i] = p
        }
        table[names.count] = lws_protocols()
        protocolTables.append(table)
        return UnsafePointer(table)
    }

    /// The retry-and-idle policy of every connection: lws's validity timers off (`secs_since_valid_hangup` 0), as
    /// keep-alive is the loop's own sweep (``watchSweep(period:)``, docs/libwebsockets.md#keepalive). Without a
    /// policy lws would apply its context default, which re-arms a per-connection timer in its sorted list.
    var retryPolicy: UnsafePointer<lws_retry_bo_t> {
        if let existing = retryPolicyStorage { return UnsafePointer(existing) }
        let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
        table.initialize(to: 1000)
        let policy = UnsafeMutablePointer<lws_retry_bo_t>.allocate(capacity: 1)
        var bo = lws_retry_bo_t()
        bo.retry_ms_table = UnsafePointer(table)
        bo.retry_ms_table_count = 1
        bo.conceal_count = 0
        bo.secs_since_valid_ping = 0
        bo.secs_since_valid_hangup = 0
        policy.initialize(to: bo)
        retryPolicyStorage = policy
        return UnsafePointer(policy)
    }

    /// The client vhost for a TLS trust setting (`nil`: plain `ws://`, no TLS at all), created on first use. Only
    /// `wss://` pays for loading a CA store (parsing a system bundle costs hundreds of millions of instructions,
    /// which every process paid at start when the loop's first vhost was a TLS one).
    func clientVhost(for tls: TLSClientConfiguration?) -> OpaquePointer? {
        if let vh = clientVhosts[tls] { return vh }
        var info = lws_context_creation_info()
        info.port = CONTEXT_PORT_NO_LISTEN
        info.protocols = protocolTable(subprotocols: [])
        info.vhost_name = strings.keep(nextVhostName("client"))
        info.gid = -1
        info.uid = -1
        guard let tls else {
            guard let vh = lws_create_vhost(context, &info) else { return nil }
            clientVhosts[nil] = vh
            return vh
        }
        info.options = UInt64(CLWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT | CLWS_SERVER_OPTION_DISABLE_OS_CA_CERTS)
        let variables = configuration.environment
        let trust = CATrust.forClient(tls) { name in
            guard let variables else { return CATrust.processEnvironment(name) }
            return variables[name]
        }
        info.client_ssl_ca_filepath = strings.keep(trust.file)
        // Read by `clientTLSContextReady(_:)` while lws builds the vhost.
        pendingCADirectory = trust.directory
        pendingClientPolicy = tls.policy
        defer { (pendingCADirectory, pendingClientPolicy) = (nil, nil) }
        guard let vh = lws_create_vhost(context, &info) else { return nil }
        if pendingTLSFailure != nil {
            // lws ignores what the callback returns for a client vhost: the refused policy is ours to act on.
            lws_vhost_destroy(vh)
            return nil
        }
        clientVhosts[tls] = vh
        return vh
    }

    /// `LWS_CALLBACK_OPENSSL_LOAD_EXTRA_CLIENT_VERIFY_CERTS`, inside `lws_create_vhost` for a client vhost: applies
    /// the policy (``TLSCipherPolicy``) and adds the CA directories of the trust being set up (``CATrust``) to its
    /// `SSL_CTX`. When OpenSSL refuses the policy, the reason is kept for ``clientVhost(for:)``, which then gives
    /// the vhost up (lws ignores the -1).
    func clientTLSContextReady(_ sslContext: OpaquePointer) -> Int32 {
        if let policy = pendingClientPolicy, let failure = policy.apply(to: sslContext) {
            pendingTLSFailure = failure
            return -1
        }
        guard let directory = pendingCADirectory else { return 0 }
        // Adding a lookup directory only records it: missing certificates show up as untrusted at connect time.
        if SSL_CTX_load_verify_locations(sslContext, nil, directory) != 1 { ERR_clear_error() }
        return 0
    }

    /// `LWS_CALLBACK_OPENSSL_LOAD_EXTRA_SERVER_VERIFY_CERTS`, inside `lws_create_vhost` for a listening `wss://`
    /// vhost, once lws has loaded its certificate: the server keeps the `SSL_CTX` (to reload the certificate) and
    /// applies its policy. Returns -1 (lws then fails the vhost) when OpenSSL refuses the policy.
    func serverTLSContextReady(_ sslContext: OpaquePointer) -> Int32 {
        guard let server = pendingServer else { return 0 }
        if let failure = server.configuration.tlsPolicy.apply(to: sslContext) {
            pendingTLSFailure = failure
            return -1
        }
        server.sslContext = sslContext
        return 0
    }

    func nextVhostName(_ prefix: String) -> String {
        vhostCounter += 1
        return "\(prefix)-\(vhostCounter)"
    }

    func register(_ core: ConnectionCore) { cores[ObjectIdentifier(core)] = core }
    func unregister(_ core: ConnectionCore) { cores[ObjectIdentifier(core)] = nil }
}
