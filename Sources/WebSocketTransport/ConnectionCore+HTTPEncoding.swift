import CLibWebSockets

/// How a plain HTTP response is put into bytes, and how a request's fields are read (docs/libwebsockets.md#plain-http).
extension ConnectionCore {
    // MARK: Encoding

    /// The status line and headers (`lws_add_http_header_status`, `…_by_name`, `…_content_length`,
    /// `lws_finalize_http_header`; the status line's reason phrase then made RFC 9110's, ``HTTPReasonPhrase``) and
    /// the body, each behind `CLWS_PRE` bytes of headroom. Nil when the headers do not fit the buffer sized for them
    /// (they always should).
    static func encode(_ response: HTTPResponse, isHead: Bool, closing: Bool,
                       _ wsi: OpaquePointer) -> (head: [UInt8], body: [UInt8])? {
        var response = response
        if !(200...599).contains(response.status) {
            response = HTTPResponse(status: 500, contentType: "text/plain; charset=utf-8",
                                    body: "the handler answered with status \(response.status)\n")
        }
        let noBody = response.status == 204 || response.status == 304
        var fields = response.headers.compactMap { name, value -> (String, String)? in
            let name = name.lowercased()
            guard isToken(name), isFieldValue(value),
                  !["content-length", "transfer-encoding", "connection"].contains(name) else { return nil }
            return (name, value)
        }.sorted { $0.0 < $1.0 }
        if closing { fields.append(("connection", "close")) }

        let fieldBytes = fields.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count + 4 }
        var head = [UInt8](repeating: 0, count: CLWS_PRE + 256 + fieldBytes)
        let headLength = head.withUnsafeMutableBufferPointer { buffer -> Int? in
            let start = buffer.baseAddress! + CLWS_PRE
            let end = buffer.baseAddress! + buffer.count
            var p: UnsafeMutablePointer<UInt8>? = start
            if lws_add_http_header_status(wsi, UInt32(response.status), &p, end) != 0 { return nil }
            for (name, value) in fields {
                let key = Array((name + ":").utf8) + [0]
                let bytes = Array(value.utf8)
                let failed = key.withUnsafeBufferPointer { k in
                    bytes.withUnsafeBufferPointer { v in
                        lws_add_http_header_by_name(wsi, k.baseAddress, v.baseAddress, Int32(v.count), &p, end)
                    }
                }
                if failed != 0 { return nil }
            }
            if !noBody {
                if isHead {
                    // The length a GET would get, without lws counting a body that will not follow.
                    let length = Array(String(response.body.count).utf8)
                    let failed = length.withUnsafeBufferPointer {
                        lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH, $0.baseAddress,
                                                     Int32($0.count), &p, end)
                    }
                    if failed != 0 { return nil }
                } else if lws_add_http_header_content_length(wsi, UInt64(response.body.count), &p, end) != 0 {
                    return nil
                }
            }
            if lws_finalize_http_header(wsi, &p, end) != 0 { return nil }
            return p! - start
        }
        guard let headLength else { return nil }
        head.removeLast(head.count - CLWS_PRE - headLength)
        head = HTTPReasonPhrase.standardizing(head, headroom: CLWS_PRE, status: response.status)
        var body = [UInt8](repeating: 0, count: CLWS_PRE)
        if !isHead && !noBody { body += response.body }
        return (head, body)
    }

    /// An RFC 9110 token (a header name).
    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A)
                || "!#$%&'*+-.^_`|~".utf8.contains(c)
        }
    }

    /// A header value without CR, LF or NUL (no header injection).
    private static func isFieldValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }

    // MARK: Request fields

    /// The query arguments lws split at `&` (and `;`) and decoded (`%XX`, `+`; an encoded `=` in a name became
    /// `_`): each fragment is `name=value` or a bare `name`; the last value of a name wins.
    static func queryArguments(_ wsi: OpaquePointer) -> [String: String] {
        var arguments: [String: String] = [:]
        for fragment in fragments(wsi, WSI_TOKEN_HTTP_URI_ARGS) where !fragment.isEmpty {
            let parts = fragment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            arguments[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return arguments
    }

    /// Each fragment lws keeps for `token`, in order, empty ones included: the query's arguments, or the values
    /// of a header that came more than once (which `lws_hdr_copy` would join with commas).
    static func fragments(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> [String] {
        var fragments: [String] = []
        var index: Int32 = 0
        // lws holds a bounded number of fragments per request; the bound here only guards against a bug.
        while index < 4096 {
            let length = lws_hdr_fragment_length(wsi, token, index)
            var buffer = [CChar](repeating: 0, count: Int(max(length, 0)) + 1)
            let copied = lws_hdr_copy_fragment(wsi, &buffer, Int32(buffer.count), token, index)
            if copied < 0 { break }
            index += 1
            fragments.append(string(buffer, length: copied))
        }
        return fragments
    }

    /// `duration` in whole microseconds (lws_usec_t), at least 1.
    static func microseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return max(1, seconds.multipliedReportingOverflow(by: 1_000_000).overflow ? Int64.max
                   : seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    }
}
