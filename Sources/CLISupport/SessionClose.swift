public import JSONRPC

extension JSONRPCClient {
    /// Ends the session at the server with `closeSession` when the connection is open (the server then ends it at
    /// once instead of keeping it for its reconnection window: a Room participant leaves, a Tree session's trees are
    /// released), then closes the connection. Waits at most about `timeout` for the answer; any failure is ignored:
    /// the connection is closed either way.
    public func closeSession(timeout: Duration = .seconds(2)) async {
        if isConnected {
            _ = try? await call(KurentoConventions.closeSession, timeout: min(timeout, configuration.requestTimeout))
        }
        await close(code: 1000, reason: "client disconnected")
    }
}
