import CLibWebSockets

/// The single lws callback of every protocol on every vhost: a named global function
/// (docs/libwebsockets.md#named-functions). It finds the loop through the context user pointer and the connection
/// through the wsi's opaque user data.
func lwsCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let ctx = lws_get_context(wsi), let raw = lws_context_user(ctx) else { return 0 }
    let loop = Unmanaged<WebSocketEventLoop>.fromOpaque(raw).takeUnretainedValue()
    // Task jobs that this callback resumes (a consumer of a received message, a sender whose frame went out) run
    // when the outermost callback returns, on this thread (``ServiceMailbox``).
    return loop.mailbox.callback { handle(loop, wsi, reason, user, input, length) }
}

/// What the callback does for `reason`.
private func handle(
    _ loop: WebSocketEventLoop, _ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    let core = lws_get_opaque_user_data(wsi).map { Unmanaged<ConnectionCore>.fromOpaque($0).takeUnretainedValue() }

    switch reason {
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        loop.drainMailbox()
        return 0

    // Client side.
    case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER:
        return core?.appendHandshakeHeaders(wsi, input, length) ?? 0
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        core?.established(wsi)
        return 0
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        let text = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "connection error"
        // A refused upgrade: say which HTTP status the server answered (401/403 from an authorizer, say).
        let status = Int(lws_http_client_http_response(wsi))
        if status > 0 && status != 101 { core?.fail(.upgradeRefused(status: status, detail: text)) } else { core?.connectionError(text) }
        return 0
    case LWS_CALLBACK_OPENSSL_LOAD_EXTRA_CLIENT_VERIFY_CERTS:
        // user = the SSL_CTX* of a client vhost that lws_create_vhost is building, on this thread.
        return user.map { loop.clientTLSContextReady(OpaquePointer($0)) } ?? 0
    case LWS_CALLBACK_OPENSSL_LOAD_EXTRA_SERVER_VERIFY_CERTS:
        // user = the SSL_CTX* of a server vhost that lws_create_vhost is building (its certificate loaded); the
        // wsi is a stand-in that only carries the context.
        return user.map { loop.serverTLSContextReady(OpaquePointer($0)) } ?? 0
    case LWS_CALLBACK_OPENSSL_PERFORM_SERVER_CERT_VERIFICATION:
        // user = X509_STORE_CTX*, len = preverify_ok. Remember why OpenSSL refused the chain: lws reports only
        // "SSL err 1" (docs/libwebsockets.md#tls). Returning 0 keeps OpenSSL's verdict.
        if length == 0, let user, let core, core.tlsVerifyError == nil {
            core.tlsVerifyError = X509_STORE_CTX_get_error(OpaquePointer(user))
        }
        return 0
    case LWS_CALLBACK_CLIENT_RECEIVE, LWS_CALLBACK_RECEIVE:
        return core?.receive(wsi, input, length) ?? 0
    case LWS_CALLBACK_CLIENT_WRITEABLE, LWS_CALLBACK_SERVER_WRITEABLE:
        core?.writeableCallbacks += 1
        return core?.writeable(wsi) ?? 0
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        core?.peerInitiatedClose(input, length)
        return 0
    case LWS_CALLBACK_CLIENT_CLOSED, LWS_CALLBACK_CLOSED, LWS_CALLBACK_CLOSED_HTTP:
        core?.finish(reason: nil)
        return 0

    // Server side.
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
        // A socket just accepted, before anything is read (wsi is the listener): beyond the loop's socket limit it is
        // closed at once, so the process keeps descriptors in reserve (docs/libwebsockets.md#service-loop).
        return loop.cores.count >= loop.socketLimit ? -1 : 0
    case LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED:
        // Client wsis get this callback too, on client vhosts (whose user is nil). For a server vhost, look the
        // server up instead of dereferencing the user pointer: a vhost being destroyed may still accept for a
        // moment after its ServerCore has finished.
        if let key = lws_get_vhost(wsi).flatMap({ lws_get_vhost_user($0) }) {
            if let server = loop.servers[key] {
                server.accepted(wsi)
            } else {
                lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
            }
        }
        return 0
    case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
        return core?.confirmUpgrade(wsi) ?? -1
    case LWS_CALLBACK_ESTABLISHED:
        core?.established(wsi)
        return 0
    case LWS_CALLBACK_RECEIVE_PONG, LWS_CALLBACK_CLIENT_RECEIVE_PONG:
        core?.pong(input, length)
        return 0
    case LWS_CALLBACK_HTTP:
        // Plain HTTP: the server's httpHandler, or 426 without one (docs/libwebsockets.md#plain-http).
        if let core { return core.httpRequest(wsi) }
        return ConnectionCore.upgradeRequired(wsi)
    case LWS_CALLBACK_HTTP_BODY:
        // A POST's body, which only arrives once `httpRequest` accepted its length (no bytes for `Content-Length: 0`).
        return core?.httpBody(wsi, input, length) ?? -1
    case LWS_CALLBACK_HTTP_BODY_COMPLETION:
        return core?.httpBodyComplete(wsi) ?? -1
    case LWS_CALLBACK_HTTP_WRITEABLE:
        if let core, core.httpExchange != nil { return core.httpWriteable(wsi) }
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    case LWS_CALLBACK_TIMER:
        // lws_set_timer_usecs: only a plain HTTP request's deadlines (its body, its handler) use the per-wsi timer.
        return core?.httpTimerFired(wsi) ?? 0

    case LWS_CALLBACK_WSI_DESTROY:
        if let core {
            lws_set_opaque_user_data(wsi, nil)
            core.destroyed()
        }
        return 0
    default:
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
}
