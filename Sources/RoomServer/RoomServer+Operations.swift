import Foundation
import JSONRPC
public import JSONRPCWebSocket
import Logging

/// The plain-HTTP routes of a ``RoomServer`` (docs/operations.md#endpoints): health and readiness, the rooms
/// snapshot and the dashboard behind the admin token, and the metrics exposition.
extension RoomServer {
    /// Which routes a listener serves (docs/operations.md#endpoints).
    public enum OperationsScope: Sendable, Hashable {
        /// The server's own port: every route.
        case all
        /// The second listener (``OperationsConfiguration/listener``): `/healthz`, `/readyz` and `/metrics` only.
        case probes
    }

    /// The path of the page served by ``operationsResponse(to:scope:)`` (docs/operations.md#dashboard).
    public static let dashboardPath = "/dashboard"

    /// `nil` when the server accepts joins; otherwise why not, in one line (what `GET /readyz` answers with 503,
    /// docs/operations.md#readiness): `shutting down`, with a cluster `cluster: Redis unreachable (…)`, or what the
    /// media backend says (``MediaBackend/notReadyReason``: with ``KurentoMediaBackend``, while no Kurento Media
    /// Server is reachable).
    public var notReadyReason: String? {
        operations.notReadyReason ?? media.notReadyReason.map { "media: \(OperationsState.oneLine($0))" }
    }

    /// Starts the second listener (``OperationsConfiguration/listener``), if configured: plain HTTP only, every
    /// upgrade refused with 404, the ``OperationsScope/probes`` routes.
    func startOperationsListener() async throws {
        guard let (host, port) = configuration.operations.listener else { return }
        var http = WebSocketServerConfiguration()
        http.host = host
        http.port = port
        http.upgradeFilter = { _ in .reject(status: 404, reason: "this port serves /healthz, /readyz and /metrics") }
        http.httpHandler = { [weak self] request in
            self?.operationsResponse(to: request, scope: .probes) ?? Self.text(503, "shutting down")
        }
        operations.attach(try await WebSocketServer.start(http))
        logger.info("operations listening", metadata: ["url": "\(operationsURL)"])
    }

    /// The answer to one plain-HTTP request (docs/operations.md#endpoints). Synchronous and cheap: it reads state and
    /// waits for nothing (the metrics exposition excepted, which is the application's).
    ///
    /// - `GET /healthz` → 200 `ok`; `GET /readyz` → 200 `ready` or 503 with ``notReadyReason``.
    /// - `GET /rooms` → the ``OperationsSnapshot`` as JSON, with the admin token as `Authorization: Bearer <token>`
    ///   or a dashboard session cookie; 401 with `WWW-Authenticate: Bearer` without either, 429 with `Retry-After`
    ///   while the peer address is locked out (``OperationsConfiguration/adminGuessLimit``). A `?token=` is ignored.
    /// - `GET /dashboard` → the page with a session cookie, else the login form; `POST /dashboard/login` (the form's
    ///   `token`) → 303 to `/dashboard` with the session cookie, or the form with 401 or 429;
    ///   `POST /dashboard/logout` → 303 to `/dashboard`, the session ended; `GET /` → 302 to `/dashboard`.
    /// - `GET /metrics` → ``OperationsConfiguration/metricsExposition`` as `text/plain; version=0.0.4`.
    /// - `GET /room/info`, `/tree/info` and `/kurento-tree/info` → SockJS's info (docs/wire-protocol.md#sockjs).
    /// - Without an admin token `/rooms` and `/dashboard` answer 404 (and `/` 426, as for any WebSocket path);
    ///   without an exposition `/metrics` answers 404; `scope` ``OperationsScope/probes`` serves only `/healthz`,
    ///   `/readyz` and `/metrics`. Other paths answer 404, other methods than `GET` and `HEAD` 405 (`POST` but on
    ///   the login and logout paths).
    public func operationsResponse(to request: HTTPRequest, scope: OperationsScope = .all) -> HTTPResponse {
        // (The transport answers other methods 405 itself, and writes no body for HEAD; this holds for direct calls.)
        if request.method == "POST", scope == .all, configuration.operations.adminToken != nil {
            // The listener reads bodies up to the largest POST route's bound too (``HTTPRoute/maxBodySize``).
            if request.body.count > Self.maxLoginBodySize,
               [Self.dashboardLoginPath, Self.dashboardLogoutPath].contains(request.path) {
                return Self.text(413, "the body is larger than \(Self.maxLoginBodySize) bytes")
            }
            switch request.path {
            case Self.dashboardLoginPath: return login(request)
            case Self.dashboardLogoutPath: return logout(request)
            default: break
            }
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            return Self.text(405, "method not allowed", headers: ["allow": "GET, HEAD"])
        }
        return route(request, scope: scope)
    }

    private func route(_ request: HTTPRequest, scope: OperationsScope) -> HTTPResponse {
        let operations = configuration.operations
        switch request.path {
        case "/healthz":
            return Self.text(200, "ok")
        case "/readyz":
            return notReadyReason.map { Self.text(503, $0) } ?? Self.text(200, "ready")
        case "/metrics":
            guard let exposition = operations.metricsExposition else { return Self.text(404, "no metrics configured") }
            return HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8",
                                body: exposition(), headers: ["cache-control": "no-store"])
        default:
            break
        }
        guard scope == .all else { return Self.text(404, "not found") }
        let admin = operations.adminToken != nil
        switch request.path {
        case "/rooms" where admin:
            let verdict = adminVerdict(headers: request.headers, peer: request.peerAddress)
            guard verdict == .granted else { return Self.refusal(verdict) }
            guard let json = try? JSONValue(encoding: operationsSnapshot()) else {
                return Self.text(500, "could not encode the snapshot")
            }
            return HTTPResponse(status: 200, contentType: "application/json", body: json.jsonText + "\n",
                                headers: ["cache-control": "no-store"])
        case Self.dashboardPath where admin, Self.dashboardLoginPath where admin:
            return dashboard(request)
        case "/" where admin:
            return HTTPResponse(status: 302, headers: ["location": Self.dashboardPath])
        case _ where Self.sockJSRoute(request.path) != nil:
            return Self.sockJSResponse(to: request) ?? Self.text(404, "not found")
        case _ where Self.paths.contains(request.path) || Self.treePaths.contains(request.path) || request.path == Self.adminPath:
            return Self.text(426, "WebSocket upgrade required", headers: ["upgrade": "websocket"])
        default:
            return Self.text(404, "not found")
        }
    }

    /// The dashboard's headers: no caching, no referrer, no framing, and a policy that lets it run its own inline
    /// script and style, connect to its own origin only, and post its "Log out" form there.
    static let dashboardHeaders = [
        "cache-control": "no-store",
        "referrer-policy": "no-referrer",
        "x-frame-options": "DENY",
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
            + "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ]

    /// A one-line `text/plain` answer.
    static func text(_ status: Int, _ line: String, headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: line + "\n", headers: headers)
    }
}
