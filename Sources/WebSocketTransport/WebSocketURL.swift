/// A parsed `ws://` or `wss://` URL (or `http://`/`https://`, read as those): what lws needs to dial.
struct WebSocketURL: Sendable, Hashable {
    static let schemes: [(prefix: String, secure: Bool)] = [
        ("ws://", false), ("wss://", true), ("http://", false), ("https://", true),
    ]

    var secure: Bool
    var host: String
    var port: Int
    /// Path and query, starting with `/`.
    var pathAndQuery: String

    /// The `Host` header value: the host, bracketed if IPv6, with the port when it is not the default.
    var hostHeader: String {
        let h = host.contains(":") ? "[\(host)]" : host
        return port == (secure ? 443 : 80) ? h : "\(h):\(port)"
    }

    init(_ string: String) throws(TransportError) {
        let lower = string.lowercased()
        let rest: Substring
        // http:// and https:// dial as ws:// and wss:// (the Kurento iOS toolbox documents room URLs that way;
        // docs/wire-protocol.md#stock-kurento).
        if let scheme = Self.schemes.first(where: { lower.hasPrefix($0.prefix) }) {
            secure = scheme.secure
            rest = string.dropFirst(scheme.prefix.count)
        } else {
            throw .invalidURL("\(string): scheme must be ws or wss (http and https are read as ws and wss)")
        }
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[rest.startIndex..<authorityEnd]
        var tail = String(rest[authorityEnd...])
        if let hash = tail.firstIndex(of: "#") { tail = String(tail[..<hash]) }
        if tail.isEmpty || tail.first == "?" { tail = "/" + tail }
        pathAndQuery = tail
        if authority.contains("@") { throw .invalidURL("\(string): user info is not supported") }

        var hostPart: Substring
        var portPart: Substring?
        if authority.first == "[" {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidURL("\(string): unterminated IPv6 literal") }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.first == ":" { portPart = after.dropFirst() } else if !after.isEmpty {
                throw .invalidURL("\(string): junk after IPv6 literal")
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        } else {
            hostPart = authority
        }
        guard !hostPart.isEmpty else { throw .invalidURL("\(string): missing host") }
        host = String(hostPart)
        if let portPart {
            guard let p = Int(portPart), (1...65535).contains(p) else { throw .invalidURL("\(string): bad port") }
            port = p
        } else {
            port = secure ? 443 : 80
        }
    }
}
