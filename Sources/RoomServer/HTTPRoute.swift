public import JSONRPCWebSocket

/// A plain-HTTP route of the application's on a ``RoomServer``'s own port, beside `/healthz`, `/metrics` and the
/// rest (``OperationsConfiguration/routes``, docs/operations.md#application-routes).
///
/// Its handler runs off the transport's service thread, in a task of its own, and has
/// ``OperationsConfiguration/routeTimeout`` to answer: past it the request is answered 503 with `Retry-After: 1`
/// and the task is cancelled. A handler that throws is answered 500 (the error is logged, never sent). The request
/// has passed the same checks as the server's own routes: a head within libwebsockets' 4 KiB, an unambiguous body
/// framing (400 otherwise), and for ``Method/post`` a `Content-Length` body of at most ``maxBodySize`` bytes (413
/// otherwise; `Content-Length: 0` is an empty body, no `Content-Length` at all 411).
///
/// ```swift
/// let version = HTTPRoute(.get, "/version") { _ in
///     HTTPResponse(status: 200, contentType: "text/plain; charset=utf-8", body: "1.4.2\n")
/// }
/// let server = try await RoomServer.start(.init(operations: .init(routes: [version])))
/// print(server.httpURL + "/version")   // http://127.0.0.1:41234/version
/// ```
public struct HTTPRoute: Sendable {
    /// The methods a route can answer.
    public enum Method: String, Sendable, Hashable {
        /// `GET`, and `HEAD` too: the handler sees `HTTPRequest.method` `HEAD` and the
        /// server writes no body.
        case get = "GET"
        /// `POST` with a `Content-Length` body of at most ``HTTPRoute/maxBodySize`` bytes (`Content-Length: 0`:
        /// an empty body).
        case post = "POST"
    }

    /// The method it answers.
    public var method: Method
    /// The exact path it answers, without a query: starts with `/`, and has no empty, `.` or `..` segment (the
    /// server matches the path libwebsockets normalised). It must not be one of ``RoomServer/reservedPaths``.
    public var path: String
    /// The largest `POST` body it accepts, in bytes (413 past it). Default 64 KiB; ignored for ``Method/get``.
    public var maxBodySize: Int
    /// Answers one request; the `HTTPRequest` carries the query, the headers, the peer
    /// address and the body.
    public var handler: @Sendable (HTTPRequest) async throws -> HTTPResponse

    /// Creates a route answering `method` on `path`.
    public init(_ method: Method = .get, _ path: String, maxBodySize: Int = 64 << 10,
                handler: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) {
        self.method = method
        self.path = path
        self.maxBodySize = maxBodySize
        self.handler = handler
    }
}
