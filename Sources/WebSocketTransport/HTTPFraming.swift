/// How a plain HTTP request's body is framed, decided from its head before a byte after it is read
/// (docs/libwebsockets.md#plain-http, "Framing"). Anything a proxy in front could read differently from lws is
/// refused, so that the bytes after the head are never taken for a second request (request smuggling).
enum HTTPFraming: Equatable {
    /// No body follows the head.
    case none
    /// A body of exactly this many bytes (1 or more) follows the head.
    case body(Int)
    /// Answer with this status and close the socket without reading further (400 ambiguous, 411 no length on a
    /// `POST`, `PUT` or `PATCH`, 413 too large).
    case refuse(status: Int, reason: String)

    /// What the head says, from what lws parsed of it.
    /// - Parameters:
    ///   - method: the request method.
    ///   - contentLengths: the value of each `Content-Length` header, in order.
    ///   - transferEncoding: whether a `Transfer-Encoding` header is present, whatever its value.
    ///   - obfuscated: whether a framing header was spelled with whitespace before its colon (RFC 9112 §5.1: a
    ///     server must answer 400), which lws does not recognise but a lenient proxy might.
    ///   - maxBody: the largest body accepted on a `POST` (``WebSocketServerConfiguration/maxHTTPBodySize``).
    static func decide(method: String, contentLengths: [String], transferEncoding: Bool, obfuscated: Bool,
                       maxBody: Int) -> HTTPFraming {
        if obfuscated { return .refuse(status: 400, reason: "whitespace before the colon of a framing header") }
        // We serve no chunked bodies, and a length beside a Transfer-Encoding is the classic smuggling pair.
        if transferEncoding { return .refuse(status: 400, reason: "Transfer-Encoding is not accepted") }
        guard contentLengths.count <= 1 else { return .refuse(status: 400, reason: "more than one Content-Length") }
        guard let text = contentLengths.first else {
            // RFC 9112 §6.3 (rule 7): a request with neither Transfer-Encoding nor Content-Length has no body, so a
            // proxy in front takes the bytes after its head for the next request. lws 4.1.6 does not: for a POST,
            // PUT or PATCH without a length it expects a body of up to 100 MiB (server.c, `lws_http_action`) and
            // reads what follows as that body, so a kept-alive socket never answered the next requests. Such a
            // request is refused instead, with the status RFC 9110 §15.5.12 names for it; a client with an empty
            // body sends `Content-Length: 0` (RFC 9110 §8.6: it SHOULD for a POST).
            guard !Self.lengthRequired.contains(method) else {
                return .refuse(status: 411, reason: "a \(method) request needs a Content-Length (0 for an empty body)")
            }
            return .none
        }
        guard let length = decimal(text) else { return .refuse(status: 400, reason: "Content-Length is not a number") }
        guard length > 0 else { return .none }
        guard method == "POST" else { return .refuse(status: 400, reason: "a \(method) request has no body") }
        guard length <= maxBody else {
            return .refuse(status: 413, reason: "the body is larger than \(maxBody) bytes")
        }
        return .body(length)
    }

    /// The methods lws reads a body for when the head gives no length: answered 411 without one.
    static let lengthRequired: Set<String> = ["POST", "PUT", "PATCH"]

    /// `text` without optional whitespace as a decimal number of at most 18 digits (no sign, no list); nil
    /// otherwise.
    private static func decimal(_ text: String) -> Int? {
        let digits = text.utf8.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }
        guard (1...18).contains(digits.count), digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return digits.reversed().reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }
}
