import CLibWebSockets
import SignalingSupport
#if canImport(Glibc)
import Glibc
#endif

/// Server-side establishment: the upgrade request is read and offered to the application's filter.
extension ConnectionCore {
    /// Header tokens captured for every upgrade.
    private static let standardHeaders: [(String, lws_token_indexes)] = [
        ("authorization", WSI_TOKEN_HTTP_AUTHORIZATION), ("origin", WSI_TOKEN_ORIGIN), ("host", WSI_TOKEN_HOST),
        ("user-agent", WSI_TOKEN_HTTP_USER_AGENT), ("sec-websocket-protocol", WSI_TOKEN_PROTOCOL),
        ("cookie", WSI_TOKEN_HTTP_COOKIE), ("x-forwarded-for", WSI_TOKEN_X_FORWARDED_FOR),
    ]

    /// W3C Trace Context headers, captured for every upgrade so that servers can continue the caller's trace
    /// (docs/operations.md#tracing).
    private static let traceHeaders = ["traceparent", "tracestate"]

    private static func string(_ buffer: [CChar], length: Int32) -> String {
        String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `LWS_CALLBACK_HTTP_CONFIRM_UPGRADE`: 0 lets the upgrade proceed, 1 means we answered with an HTTP status.
    func confirmUpgrade(_ wsi: OpaquePointer) -> Int32 {
        guard let server else { return -1 }
        var buffer = [CChar](repeating: 0, count: 4096)
        func copy(_ token: lws_token_indexes) -> String? {
            let n = clws_copy_header(wsi, token, &buffer, Int32(buffer.count))
            return n < 0 ? nil : Self.string(buffer, length: n)
        }
        var headers: [String: String] = [:]
        for (name, token) in Self.standardHeaders {
            if let value = copy(token) { headers[name] = value }
        }
        for name in Self.traceHeaders + server.configuration.extraHeaderNames {
            let key = Array((name.lowercased() + ":").utf8CString)
            let n = key.withUnsafeBufferPointer { k in
                lws_hdr_custom_copy(wsi, &buffer, Int32(buffer.count), k.baseAddress, Int32(k.count - 1))
            }
            if n >= 0 { headers[name.lowercased()] = Self.string(buffer, length: n) }
        }
        var peer = [CChar](repeating: 0, count: 128)
        let address = lws_get_peer_simple(wsi, &peer, peer.count).map { String(cString: $0) } ?? ""
        let request = UpgradeRequest(
            path: copy(WSI_TOKEN_GET_URI) ?? "/", query: copy(WSI_TOKEN_HTTP_URI_ARGS) ?? "",
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
            _ = lws_return_http_status(wsi, UInt32(clamping: status), reason)
            return 1
        }
    }
}
