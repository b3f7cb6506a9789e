import CLibWebSockets
import SignalingSupport

/// Client-side establishment: dialling through lws and the extra upgrade headers.
extension ConnectionCore {
    /// Service thread: starts the connect to `address` (resolved already: lws must never resolve a name here),
    /// to complete `within` what is left of the handshake timeout. Failures complete the connect waiter.
    func startClient(_ url: WebSocketURL, address: String, _ configuration: WebSocketClientConfiguration,
                     within deadline: Duration) {
        if case .closed = shared.withLock({ $0.phase }) { return }
        if shared.withLock({ $0.requestedClose != nil }) {  // cancelled before we got here
            fail(.connectFailed("cancelled"))
            finish(reason: "cancelled")
            return
        }
        guard let vhost = loop.clientVhost(for: url.secure ? configuration.tls : nil) else {
            let reason = loop.pendingTLSFailure ?? "CA file \(configuration.tls.caFile ?? "system store")"
            loop.pendingTLSFailure = nil
            fail(.tlsFailure("cannot set up TLS (\(reason))"))
            finish(reason: nil)
            return
        }
        extraHeaders = configuration.headers
        // lws copies address, path, host, origin and protocol during the call (docs/libwebsockets.md#lifetimes), so
        // these copies die with this function; only the local protocol name must live on, and the loop's table holds
        // it.
        let strings = CStringStore()
        var ci = lws_client_connect_info()
        ci.context = loop.context
        ci.vhost = vhost
        ci.address = strings.keep(address)
        ci.port = Int32(url.port)
        ci.path = strings.keep(url.pathAndQuery)
        ci.host = strings.keep(url.hostHeader)
        ci.origin = nil
        if let sub = configuration.subprotocol { ci.protocol = strings.keep(sub) }
        ci.local_protocol_name = loop.defaultProtocolName
        ci.retry_and_idle_policy = loop.retryPolicy
        if url.secure {
            var flags = LCCSCF_USE_SSL.rawValue
            if configuration.tls.allowSelfSigned { flags |= LCCSCF_ALLOW_SELFSIGNED.rawValue }
            if configuration.tls.skipHostnameCheck { flags |= LCCSCF_SKIP_SERVER_CERT_HOSTNAME_CHECK.rawValue }
            ci.ssl_connection = Int32(bitPattern: flags)
        }
        ci.opaque_user_data = unretained
        loop.register(self)
        let timeout = configuration.handshakeTimeout
        handshakeTimer = SystemClock().schedule(after: deadline) { [loop] in
            try? loop.submit { [self] in handshakeExpired(timeout) }
        }
        guard let wsi = withExtendedLifetime(strings, { lws_client_connect_via_info(&ci) }) else {
            // No CONNECTION_ERROR callback follows a NULL return (docs/libwebsockets.md#user-data).
            fail(.connectFailed("cannot start connecting to \(url.host) (\(address)):\(url.port)"))
            finish(reason: nil)
            loop.unregister(self)
            return
        }
        if !finished { self.wsi = wsi }
    }

    /// Any thread: the loop refused to start this connection because it is shutting down or has shut down.
    func refused(_ error: TransportError) {
        let waiter = shared.withLock { s -> CheckedContinuation<Void, any Error>? in
            s.phase = .closed(WebSocketCloseInfo(code: .abnormal, reason: error.description, initiatedLocally: true))
            defer { s.connectWaiter = nil }
            return s.connectWaiter
        }
        waiter?.resume(throwing: error)
    }

    /// Service thread: the handshake timer fired.
    func handshakeExpired(_ timeout: Duration) {
        guard !finished, case .connecting = shared.withLock({ $0.phase }) else { return }
        fail(.handshakeTimeout(timeout))
        if let wsi { lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC) }
    }

    /// `LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER`: `input` is `unsigned char **p`, `length` the room left.
    func appendHandshakeHeaders(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard let input, !extraHeaders.isEmpty else { return 0 }
        let p = input.assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
        guard let start = p.pointee else { return 0 }
        let end = start + length
        for header in extraHeaders {
            let name = Array((header.name.lowercased() + ":").utf8) + [0]
            let value = Array(header.value.utf8)
            let rc = name.withUnsafeBufferPointer { n in
                value.withUnsafeBufferPointer { v in
                    lws_add_http_header_by_name(wsi, n.baseAddress, v.baseAddress, Int32(v.count), p, end)
                }
            }
            if rc != 0 { return -1 }
        }
        return 0
    }
}
