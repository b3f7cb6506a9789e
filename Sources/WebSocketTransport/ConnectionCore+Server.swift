import CLibWebSockets
import SignalingSupport
#if canImport(Glibc)
import Glibc
#endif

/// Server-side establishment: the upgrade request is read and offered to the application's filter.
extension ConnectionCore {
    /// Header tokens captured for every upgrade.
    static let standardHeaders: [(String, lws_token_indexes)] = [
        ("authorization", WSI_TOKEN_HTTP_AUTHORIZATION), ("origin", WSI_TOKEN_ORIGIN), ("host", WSI_TOKEN_HOST),
        ("user-agent", WSI_TOKEN_HTTP_USER_AGENT), ("sec-websocket-protocol", WSI_TOKEN_PROTOCOL),
        ("cookie", WSI_TOKEN_HTTP_COOKIE), ("x-forwarded-for", WSI_TOKEN_X_FORWARDED_FOR),
    ]

    /// W3C Trace Context headers, captured for every upgrade so that servers can continue the caller's trace
    /// (docs/operations.md#tracing).
    private static let traceHeaders = ["traceparent", "tracestate"]

    /// Header tokens captured for every plain HTTP request (``HTTPRequest/headers``).
    static let httpHeaders: [(String, lws_token_indexes)] =
        standardHeaders.filter { $0.0 != "sec-websocket-protocol" } + [
        ("x-real-ip", WSI_TOKEN_HTTP_X_REAL_IP), ("accept", WSI_TOKEN_HTTP_ACCEPT),
        ("accept-encoding", WSI_TOKEN_HTTP_ACCEPT_ENCODING), ("accept-language", WSI_TOKEN_HTTP_ACCEPT_LANGUAGE),
        ("cache-control", WSI_TOKEN_HTTP_CACHE_CONTROL), ("if-none-match", WSI_TOKEN_HTTP_IF_NONE_MATCH),
        ("if-modified-since", WSI_TOKEN_HTTP_IF_MODIFIED_SINCE), ("referer", WSI_TOKEN_HTTP_REFERER),
        ("range", WSI_TOKEN_HTTP_RANGE), ("connection", WSI_TOKEN_CONNECTION),
    ]

    /// A header lws parsed into a token, or nil when absent. Sized from lws's own length, so a header is never cut.
    static func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
        let length = lws_hdr_total_length(wsi, token)
        guard length > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        let n = clws_copy_header(wsi, token, &buffer, Int32(buffer.count))
        return n < 0 ? nil : string(buffer, length: n)
    }

    /// The headers of the request lws is holding (upgrade or plain HTTP): the `standard` tokens, then each of
    /// `extra` (case-insensitive), keyed by lowercase name. An extra name lws knows as a token is read through it;
    /// any other through lws's custom-header store.
    static func captureHeaders(_ wsi: OpaquePointer, standard: [(String, lws_token_indexes)],
                               extra: [String]) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, token) in standard {
            if let value = header(wsi, token) { headers[name] = value }
        }
        for name in extra.map({ $0.lowercased() }) where headers[name] == nil {
            if let token = (standardHeaders + httpHeaders).first(where: { $0.0 == name })?.1 {
                if let value = header(wsi, token) { headers[name] = value }
                continue
            }
            if let value = customHeader(wsi, name) { headers[name] = value }
        }
        return headers
    }

    /// A header lws knows no token for (`name` lowercase), from its custom-header store; nil when absent.
    static func customHeader(_ wsi: OpaquePointer, _ name: String) -> String? {
        let key = Array((name + ":").utf8CString)
        return key.withUnsafeBufferPointer { k -> String? in
            let nameLength = Int32(k.count - 1)
            let length = lws_hdr_custom_length(wsi, k.baseAddress, nameLength)
            guard length >= 0 else { return nil }
            var buffer = [CChar](repeating: 0, count: Int(length) + 1)
            let copied = lws_hdr_custom_copy(wsi, &buffer, Int32(buffer.count), k.baseAddress, nameLength)
            return copied < 0 ? nil : string(buffer, length: copied)
        }
    }

    /// The peer's address as lws reports it ("" when unknown).
    static func peerAddress(_ wsi: OpaquePointer) -> String {
        var peer = [CChar](repeating: 0, count: 128)
        return lws_get_peer_simple(wsi, &peer, peer.count).map { String(cString: $0) } ?? ""
    }

    static func string(_ buffer: [CChar], length: Int32) -> String {
        String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `LWS_CALLBACK_HTTP_CONFIRM_UPGRADE`: 0 lets the upgrade proceed, 1 means we answered with an HTTP status.
    func confirmUpgrade(_ wsi: OpaquePointer) -> Int32 {
        guard let server else { return -1 }
        let headers = Self.captureHeaders(wsi, standard: Self.standardHeaders,
                                          extra: Self.traceHeaders + server.configuration.extraHeaderNames)
        let address = Self.peerAddress(wsi)
        let request = UpgradeRequest(
            path: Self.header(wsi, WSI_TOKEN_GET_URI) ?? "/", query: Self.header(wsi, WSI_TOKEN_HTTP_URI_ARGS) ?? "",
            headers: headers, peerAddress: address)
        self.request = request
        let decision: UpgradeDecision
        if let cap = server.configuration.maxConnectionsPerAddress, server.connectionCount(from: address) >= cap {
            decision = .reject(status: 429, reason: "too many connections from \(address) (limit \(cap))")
        } else {
            decision = server.configuration.upgradeFilter?(request) ?? .accept
        }
        switch decision {
        case .accept:
            server.count(self, from: address)
            return 0
        case .reject(let status, let reason):
            handshakeTimer?.cancel()
            localClose = (WebSocketCloseCode.policyViolation.rawValue, "upgrade refused with HTTP \(status)")
            // Written as any plain HTTP answer is (its standard reason phrase, the reason as a text body), then closed.
            _ = refuse(wsi, HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: reason + "\n"))
            return 1
        }
    }
}
