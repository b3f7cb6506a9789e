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

    /// Creates a request as the server would capture it (for testing an ``WebSocketServerConfiguration/upgradeFilter``
    /// or an authorizer); `headers` are keyed by lowercase name.
    public init(path: String = "/", query: String = "", headers: [String: String] = [:], peerAddress: String = "") {
        self.path = path
        self.query = query
        self.headers = headers
        self.peerAddress = peerAddress
    }

    /// The bearer token: `Authorization: Bearer …` (the scheme in any case, RFC 9110 §11.1; RFC 6750 §2.1), else
    /// `?access_token=` (RFC 6750 §2.3, for browsers, which cannot set headers on a WebSocket; a query string can
    /// end up in proxy logs, so prefer the header); `nil` without either (docs/architecture.md#identity).
    public var bearerToken: String? {
        Self.bearerToken(authorization: headers["authorization"]) ?? queryItem("access_token")
    }

    /// The token of an `Authorization` header value of the Bearer scheme: `Bearer`, `bearer` or `BEARER`, one or more
    /// spaces, then the token (surrounding spaces dropped); `nil` for another scheme or an empty token.
    public static func bearerToken(authorization header: String?) -> String? {
        guard let header else { return nil }
        let trimmed = header.drop { $0 == " " || $0 == "\t" }
        guard trimmed.count > 6, trimmed.prefix(6).lowercased() == "bearer",
              let space = trimmed.dropFirst(6).first, space == " " || space == "\t" else { return nil }
        let token = trimmed.dropFirst(7).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
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
