public import JSONRPCWebSocket
import Logging

/// The application's plain-HTTP routes on the server's own port (``OperationsConfiguration/routes``,
/// docs/operations.md#application-routes), beside the server's own.
extension RoomServer {
    /// Every path the server answers itself, on its own port: the WebSocket paths (``paths``, ``treePaths``,
    /// ``adminPath``), SockJS's `/info` and raw `/websocket` under each of ``sockJSPrefixes``, and the operations routes (`/healthz`, `/readyz`, `/metrics`, `/rooms`, ``dashboardPath``,
    /// ``dashboardLoginPath``, ``dashboardLogoutPath``), whether or not the admin routes are on. No
    /// ``HTTPRoute`` may take one (``OperationsConfiguration/RouteRefused``).
    public static let reservedPaths: Set<String> = paths.union(treePaths).union([
        adminPath, "/healthz", "/readyz", "/metrics", "/rooms", dashboardPath, dashboardLoginPath, dashboardLogoutPath,
    ]).union(sockJSPrefixes.flatMap { [$0 + "/info", $0 + "/websocket"] })

    /// The answer to one plain-HTTP request on the server's own port, what ``start(_:)`` serves: the application's
    /// route for its path (``OperationsConfiguration/routes``), else ``operationsResponse(to:scope:)``. A path with
    /// routes but none for the method answers 405 with `Allow`; a `POST` body over the route's
    /// ``HTTPRoute/maxBodySize`` 413; a handler that throws 500. Called directly (not through the listener), the
    /// ``OperationsConfiguration/routeTimeout`` does not apply.
    public func httpResponse(to request: HTTPRequest) async -> HTTPResponse {
        let routes = configuration.operations.routes.filter { $0.path == request.path }
        guard !routes.isEmpty else { return operationsResponse(to: request) }
        let method = request.method == "HEAD" ? HTTPRoute.Method.get.rawValue : request.method
        guard let route = routes.first(where: { $0.method.rawValue == method }) else {
            let allowed = routes.flatMap { $0.method == .get ? ["GET", "HEAD"] : [$0.method.rawValue] }
            return Self.text(405, "method not allowed", headers: ["allow": allowed.joined(separator: ", ")])
        }
        if route.method == .post, request.body.count > route.maxBodySize {
            return Self.text(413, "the body is larger than \(route.maxBodySize) bytes")
        }
        do {
            return try await route.handler(request)
        } catch {
            logger.error("an HTTP route's handler failed", metadata: [
                "method": "\(route.method.rawValue)", "path": "\(route.path)", "error": "\(error)",
            ])
            return Self.text(500, "internal error")
        }
    }

    /// The largest `POST` body the listener reads: the dashboard's login form with an admin token, and each `POST`
    /// route's ``HTTPRoute/maxBodySize`` (at least 1, so that an empty body reaches a route that takes no more).
    static func maxHTTPBodySize(_ operations: OperationsConfiguration) -> Int {
        let routes = operations.routes.filter { $0.method == .post }.map { max(1, $0.maxBodySize) }
        return ([operations.adminToken == nil ? 0 : maxLoginBodySize] + routes).max() ?? 0
    }
}

extension OperationsConfiguration {
    /// Why ``RoomServer/start(_:)`` refused a route of ``routes``.
    public struct RouteRefused: Error, CustomStringConvertible {
        /// The route's method.
        public var method: HTTPRoute.Method
        /// The route's path.
        public var path: String
        /// Why, e.g. "/healthz is the server's own path".
        public var reason: String
        public var description: String { "HTTP route \(method.rawValue) \(path) refused: \(reason)" }
    }

    /// Throws ``RouteRefused`` for the first route of ``routes`` that takes one of ``RoomServer/reservedPaths``,
    /// has a path the server could never match (no leading `/`, a query, an empty, `.` or `..` segment), a negative
    /// ``HTTPRoute/maxBodySize``, or the method and path of an earlier one.
    func checkRoutes() throws {
        var seen: Set<String> = []
        for route in routes {
            let refuse = { (reason: String) in RouteRefused(method: route.method, path: route.path, reason: reason) }
            if RoomServer.reservedPaths.contains(route.path) { throw refuse("\(route.path) is the server's own path") }
            let segments = route.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            guard route.path.hasPrefix("/"), !route.path.contains("?"), !route.path.contains("#"),
                  !segments.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." })
            else { throw refuse("a path starts with / and has no query, no empty, . or .. segment") }
            guard route.maxBodySize >= 0 else { throw refuse("maxBodySize is negative") }
            guard seen.insert(route.method.rawValue + " " + route.path).inserted else {
                throw refuse("an earlier route has the same method and path")
            }
        }
    }
}
