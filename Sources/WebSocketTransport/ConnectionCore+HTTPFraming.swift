import CLibWebSockets

/// What lws parsed of a request head that decides its body's framing (``HTTPFraming``,
/// docs/libwebsockets.md#plain-http, "Framing").
extension ConnectionCore {
    /// The framing of the request lws holds, for `method`, with bodies up to `maxBody` bytes.
    static func framing(_ wsi: OpaquePointer, method: String, maxBody: Int) -> HTTPFraming {
        HTTPFraming.decide(
            method: method,
            // lws keeps a repeated header as fragments of one token, which `lws_hdr_copy` joins with commas.
            contentLengths: fragments(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH),
            transferEncoding: !fragments(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING).isEmpty,
            obfuscated: hasObfuscatedFramingHeader(wsi), maxBody: maxBody)
    }

    /// Whether the request has `Transfer-Encoding` or `Content-Length` with whitespace before its colon.
    ///
    /// lws matches a known header name together with its colon, so `Transfer-Encoding : chunked` is no
    /// `Transfer-Encoding` to it: it goes to the custom-header store under its lowercase name up to and with the
    /// colon. lws 4.1.6 can look a custom header up by exact name only (`lws_hdr_custom_length`) and cannot list
    /// them, so the spellings a lenient proxy could take for the real header are looked up one by one:
    /// ``obfuscatedFramingNames``.
    static func hasObfuscatedFramingHeader(_ wsi: OpaquePointer) -> Bool {
        obfuscatedFramingNames.contains { name in
            name.withUnsafeBufferPointer { lws_hdr_custom_length(wsi, $0.baseAddress, Int32($0.count - 1)) >= 0 }
        }
    }

    /// `transfer-encoding` and `content-length`, each followed by a run of whitespace and a colon, as C strings:
    /// every mix of spaces and tabs up to 6 long, and runs of one of them up to 32 long (356 names).
    static let obfuscatedFramingNames: [[CChar]] = {
        var runs: [String] = [""]
        var mixed: [String] = []
        for _ in 1...6 {
            runs = runs.flatMap { [$0 + " ", $0 + "\t"] }
            mixed += runs
        }
        let long = (7...32).flatMap { [String(repeating: " ", count: $0), String(repeating: "\t", count: $0)] }
        return ["transfer-encoding", "content-length"].flatMap { name in
            (mixed + long).map { Array((name + $0 + ":").utf8CString) }
        }
    }()
}
