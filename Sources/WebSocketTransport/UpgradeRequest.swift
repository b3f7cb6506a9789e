import Foundation

/// What a server learns about an upgrade request before accepting it.
public struct UpgradeRequest: Sendable, Hashable {
    /// The request path without the query, e.g. `/room`.
    public var path: String
    /// The raw query string without `?`, e.g. `access_token=abc`; empty when absent.
    public var query: String
    /// Captured headers, keyed by lowercase name.
    public var headers: [String: String]
    /// The peer's address.
    public var peerAddress: String

    /// The bearer token: `Authorization: Bearer …`, else `?access_token=` (for browsers, which cannot set headers
    /// on a WebSocket); `nil` without either (docs/architecture.md#identity).
    public var bearerToken: String? {
        if let header = headers["authorization"], header.lowercased().hasPrefix("bearer ") {
            return String(header.dropFirst("bearer ".count))
        }
        return queryItem("access_token")
    }

    /// The value of the query parameter `name`, percent-decoded.
    public func queryItem(_ name: String) -> String? {
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.first.map(String.init) == name {
                let raw = parts.count > 1 ? String(parts[1]) : ""
                return raw.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? raw
            }
        }
        return nil
    }
}

/// The server's answer to an ``UpgradeRequest``.
public enum UpgradeDecision: Sendable, Hashable {
    /// Complete the WebSocket handshake.
    case accept
    /// Refuse with an HTTP status (e.g. 401, 403) and a short body. From the asynchronous
    /// ``WebSocketServerConfiguration/authorizeUpgrade``, which decides after the handshake, the refusal is a
    /// WebSocket close instead: code ``closeCode(forStatus:)`` with `reason`.
    case reject(status: Int, reason: String)

    /// The WebSocket close code that carries a refusal with HTTP `status` after the handshake: 4000 + the status for
    /// 4xx (4401 unauthorized, 4403 forbidden, 4429 too many requests: clients do not reconnect after 4401/4403),
    /// 1008 (policy violation) for anything else.
    public static func closeCode(forStatus status: Int) -> UInt16 {
        (400..<500).contains(status) ? UInt16(4000 + status) : WebSocketCloseCode.policyViolation.rawValue
    }
}
