import SignalingSupport

/// Which loop's context does libwebsockets' global OpenSSL initialization: only the first one created.
///
/// lws 4.1.6 acquires new OpenSSL ex-data indexes in every context created with
/// `LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT` (`lws_context_init_ssl_library`; later lws versions acquire them once).
/// TLS handshakes find their connection through those indexes, so a second loop starting while another loop has
/// handshakes in flight made them fail with a bare "SSL err 1". Contexts after the first therefore leave the
/// global init out; their vhosts still ask for TLS (the vhost's own `DO_SSL_GLOBAL_INIT` creates its `SSL_CTX`).
enum SSLLibraryInit {
    /// Whether a context has done the global init.
    private static let done = LockedValue(false)

    /// Runs `create`, telling it whether its context must do the global init. Contexts are created one at a time,
    /// so two loops starting together never both acquire indexes; a failed creation leaves the init to the next.
    static func creatingContext(_ create: (_ doGlobalInit: Bool) -> OpaquePointer?) -> OpaquePointer? {
        done.withLock { done in
            let context = create(!done)
            if context != nil { done = true }
            return context
        }
    }
}
