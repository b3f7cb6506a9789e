import JSONRPCWebSocket

/// Where a started ``RoomServer`` answers plain HTTP (docs/operations.md#endpoints): the probes and the metrics on
/// its own port or on the second listener (``OperationsConfiguration/listener``), the admin routes on its own port.
/// Each is empty for a server made with ``init(configuration:)``, which listens on nothing, and after the route's
/// feature is off (as said for each).
///
/// ```swift
/// let server = try await RoomServer.start(.init(operations: .init(metricsExposition: { "…" })))
/// print(server.healthURL)   // http://127.0.0.1:41234/healthz
/// print(server.metricsURL)  // http://127.0.0.1:41234/metrics
/// ```
extension RoomServer {
    /// The server's own port for plain HTTP, e.g. `http://127.0.0.1:41234` (`https://` with
    /// ``Configuration/tls``), where the admin routes and the application's (``OperationsConfiguration/routes``)
    /// are served; empty for a server made with ``init(configuration:)``.
    public var httpURL: String { listener?.httpBaseURL ?? "" }

    /// Where `/healthz`, `/readyz` and `/metrics` are served, without a path: the second listener
    /// (``OperationsConfiguration/listener``, always `http://`, e.g. `http://127.0.0.1:9100`) when there is one,
    /// else the server's own port (``httpURL``); empty for a server made with ``init(configuration:)``.
    public var operationsURL: String {
        if let second = operations.listener { return second.httpURL }
        return httpURL
    }

    /// The liveness probe, `GET` answered 200 `ok`, e.g. `http://127.0.0.1:41234/healthz` (on ``operationsURL``).
    public var healthURL: String { operationsEndpoint("/healthz") }

    /// The readiness probe, `GET` answered 200 `ready` or 503 with ``notReadyReason``, e.g.
    /// `http://127.0.0.1:41234/readyz` (on ``operationsURL``).
    public var readinessURL: String { operationsEndpoint("/readyz") }

    /// The metrics exposition (``OperationsConfiguration/metricsExposition``), e.g.
    /// `http://127.0.0.1:41234/metrics` (on ``operationsURL``); empty when no exposition is configured.
    public var metricsURL: String {
        configuration.operations.metricsExposition == nil ? "" : operationsEndpoint("/metrics")
    }

    /// The rooms snapshot as JSON behind the admin token (docs/operations.md#rooms), e.g.
    /// `https://example.org:8443/rooms`; empty without ``OperationsConfiguration/adminToken``.
    public var roomsURL: String { adminEndpoint(httpURL, "/rooms") }

    /// The dashboard page (docs/operations.md#dashboard), e.g. `http://127.0.0.1:41234/dashboard`; empty without
    /// ``OperationsConfiguration/adminToken``.
    public var dashboardURL: String { adminEndpoint(httpURL, Self.dashboardPath) }

    /// The `/admin` WebSocket subscription (docs/operations.md#admin-subscription), e.g.
    /// `ws://127.0.0.1:41234/admin` (`wss://` with TLS); empty without ``OperationsConfiguration/adminToken``.
    public var adminURL: String { adminEndpoint(listener?.baseURL ?? "", Self.adminPath) }

    private func operationsEndpoint(_ path: String) -> String {
        let base = operationsURL
        return base.isEmpty ? "" : base + path
    }

    private func adminEndpoint(_ base: String, _ path: String) -> String {
        guard configuration.operations.adminToken != nil, !base.isEmpty else { return "" }
        return base + path
    }
}
