/// The reason phrase of an HTTP status line (RFC 9110 §15): lws 4.1.6 writes none for most statuses (`426 `,
/// `429 `) and "Redirect" for every 3xx, so the transport writes the status line's phrase itself
/// (docs/libwebsockets.md#plain-http).
enum HTTPReasonPhrase {
    /// The standard phrase of `status`; for a status RFC 9110 does not name, the name of its class.
    static func phrase(for status: Int) -> String {
        if let phrase = phrases[status] { return phrase }
        switch status {
        case 100..<200: return "Informational"
        case 200..<300: return "Success"
        case 300..<400: return "Redirection"
        case 400..<500: return "Client Error"
        default: return "Server Error"
        }
    }

    private static let phrases: [Int: String] = [
        100: "Continue", 101: "Switching Protocols",
        200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content",
        205: "Reset Content", 206: "Partial Content",
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required",
        408: "Request Timeout", 409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed",
        413: "Content Too Large", 414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable",
        417: "Expectation Failed", 421: "Misdirected Request", 422: "Unprocessable Content",
        426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
        431: "Request Header Fields Too Large",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 505: "HTTP Version Not Supported",
    ]

    /// `head`, the `CLWS_PRE` headroom then the header block lws wrote, with its status line's phrase replaced by
    /// ``phrase(for:)``; unchanged when the block does not start with an HTTP/1 status line.
    static func standardizing(_ head: [UInt8], headroom: Int, status: Int) -> [UInt8] {
        let block = head[headroom...]
        guard block.starts(with: "HTTP/".utf8), let end = block.firstIndex(of: 0x0D),
              let space = block[..<end].firstIndex(of: 0x20) else { return head }
        return Array(head[..<headroom]) + block[..<space] + Array(" \(status) \(phrase(for: status))".utf8)
            + block[end...]
    }
}
