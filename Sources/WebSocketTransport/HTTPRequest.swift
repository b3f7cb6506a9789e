/// A plain HTTP request (no WebSocket upgrade) that reached a WebSocketServer.
///
/// Built on the service thread from what libwebsockets parsed, then handed to
/// ``WebSocketServerConfiguration/httpHandler`` off that thread (docs/libwebsockets.md#plain-http). `GET` and
/// `HEAD` requests without a body reach the handler, and `POST` with a `Content-Length` body of at most
/// ``WebSocketServerConfiguration/maxHTTPBodySize`` bytes when that is above 0. Anything else is answered (405 for
/// another method, 400 for a body where none is allowed or an ambiguous framing, 413 for a body too large) and the
/// connection closes.
public struct HTTPRequest: Sendable, Hashable {
    /// The request method: `"GET"`, `"HEAD"` or (with ``WebSocketServerConfiguration/maxHTTPBodySize``) `"POST"`.
    public var method: String
    /// The path without the query, percent-decoded, as libwebsockets normalises it: `//` becomes `/`, and `/./`
    /// and `/../` segments are resolved (never above `/`).
    public var path: String
    /// The query parameters, decoded (`%XX` and `+`); the last value wins when a name repeats. A name given
    /// without `=` maps to the empty string.
    public var query: [String: String]
    /// Request headers by lowercase name: `host`, `user-agent`, `authorization`, `cookie`, `origin`,
    /// `x-forwarded-for`, `x-real-ip`, `accept`, `accept-encoding`, `accept-language`, `cache-control`,
    /// `if-none-match`, `if-modified-since`, `referer`, `range`, `connection`, plus
    /// ``WebSocketServerConfiguration/extraHeaderNames``. Absent headers have no entry.
    public var headers: [String: String]
    /// The peer's address, e.g. `127.0.0.1`.
    public var peerAddress: String
    /// The body of a `POST`, exactly as many bytes as its `Content-Length` said; empty for `GET` and `HEAD`.
    public var body: [UInt8]

    /// Creates a request, e.g. to call a handler in a unit test.
    public init(method: String = "GET", path: String, query: [String: String] = [:], headers: [String: String] = [:],
                peerAddress: String = "127.0.0.1", body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.peerAddress = peerAddress
        self.body = body
    }
}

/// The answer to an ``HTTPRequest``, written by the server on the service thread
/// (docs/libwebsockets.md#plain-http).
///
/// The server adds `content-length` itself (and drops a `content-length`, `transfer-encoding` or `connection`
/// given here: libwebsockets decides whether the connection stays open). A header whose name is not an HTTP token
/// or whose value holds CR, LF or NUL is dropped. A status outside 200…599 is answered 500. For `HEAD`, and for
/// 204 and 304, no body is written.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code, e.g. 200.
    public var status: Int
    /// Response headers by name, e.g. `"content-type"`, `"location"`, `"cache-control"`. Names are sent lowercase.
    public var headers: [String: String]
    /// The body bytes.
    public var body: [UInt8]

    /// Creates a response with raw body bytes.
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Creates a response with a text body (sent as UTF-8) and its `content-type`, which replaces any
    /// `content-type` in `headers`.
    public init(status: Int, contentType: String, body: String, headers: [String: String] = [:]) {
        var all = headers.filter { $0.key.lowercased() != "content-type" }
        all["content-type"] = contentType
        self.init(status: status, headers: all, body: Array(body.utf8))
    }
}
