public import JSONRPC
import Foundation

/// A failure in a command-line tool's words: what happened, without library advice ("raise requestTimeout") or API
/// names, and with session ids redacted (docs/operations.md#logs).
public enum Problem {
    /// One line for `error`.
    public static func describe(_ error: any Error) -> String {
        switch error {
        case let error as RPCError: describe(error)
        case let end as ConnectionEnd: describe(end)
        default: "\(error)"
        }
    }

    /// One line for a call's failure.
    public static func describe(_ error: RPCError) -> String {
        switch error {
        case .remote(let object): describe(object)
        case .timeout(let method, let attempts): "'\(method)' got no response after \(attempts) attempt(s)"
        case .cancelled: "cancelled"
        case .connectionClosed(let end?): "the connection \(describe(end))"
        case .connectionClosed(nil): "not connected"
        case .unauthorized(let end), .forbidden(let end): refusal(end)
        case .invalidResponse(let detail): "invalid response: \(detail)"
        case .encodingFailed(let detail): "cannot encode the request: \(detail)"
        }
    }

    /// An error object the server answered with: its code, message, and `data` without the `sessionId`.
    public static func describe(_ object: RPCErrorObject) -> String {
        var data = object.data
        if case .object(var members)? = data {
            members["sessionId"] = nil
            // Kurento's shape wraps a string `data` as `{"value": …, "sessionId": …}`.
            if members.count == 1, let value = members["value"] { data = value } else {
                data = members.isEmpty ? nil : .object(members)
            }
        }
        let detail: String? = switch data {
        case .string(let text)?: text
        case let value?: value.jsonText
        case nil: nil
        }
        return "\(object.code) \(object.message)" + (detail.map { " (\($0))" } ?? "")
    }

    /// A refused connection (``/JSONRPC/RPCError/unauthorized(_:)``, ``/JSONRPC/RPCError/forbidden(_:)``) in the
    /// tool's words: what was refused and what to do.
    public static func refusal(_ end: ConnectionEnd) -> String {
        let verdict = end.code == 4403
            ? "forbidden: the --token given does not allow this"
            : "unauthorized: give a valid bearer token with --token (missing, invalid or expired)"
        return "the server refused the connection (\(describe(end))): \(verdict)"
    }

    /// How a connection ended: "closed (1008): rate limited", in the tool's words.
    public static func describe(_ end: ConnectionEnd) -> String {
        ConnectionEnd(code: end.code, reason: words(end.reason)).description
    }

    /// Why a connection to `url` could not be opened: what the network says (``ConnectionDiagnosis``: "connection
    /// refused", "the server speaks TLS; use wss://"), else what the transport said, in the tool's words.
    public static func connectFailure(_ error: any Error, url: String) -> String {
        if let diagnosis = ConnectionDiagnosis.diagnose(url) { return diagnosis }
        if case RPCError.connectionClosed(let end?) = error { return words(end.reason) }
        return words(describe(error))
    }

    /// How the connection to `url` ended; after reconnect attempts that could not connect, what the network says
    /// about `url` now ("connection refused") instead of the transport's last text.
    public static func connectionEnded(_ end: ConnectionEnd, url: String) -> String {
        let marker = "could not connect): "
        guard end.reason.hasPrefix("gave up reconnecting"), let range = end.reason.range(of: marker),
              let diagnosis = ConnectionDiagnosis.diagnose(url) else { return describe(end) }
        return describe(ConnectionEnd(code: end.code, reason: end.reason[..<range.upperBound] + diagnosis))
    }

    /// A transport's or library's text in a command-line tool's words: one "connect failed: ", and the command-line
    /// flags where it names the Swift API.
    static func words(_ text: String) -> String {
        var text = text
        while text.hasPrefix("connect failed: connect failed: ") { text.removeFirst("connect failed: ".count) }
        return text.replacingOccurrences(
            of: "configure its CA with `TLSClientConfiguration.caFile`",
            with: "trust its CA with --ca-file FILE, or accept a self-signed certificate with --insecure")
    }

    /// A URL that serves `service` where the tool needs `expected`: "this URL serves Tree, not Room (Room is on
    /// /room)".
    public static func wrongService(_ service: String, expected: String) -> String {
        "this URL serves \(capitalized(service)), not \(capitalized(expected)) (\(capitalized(expected)) is on /\(expected))"
    }

    /// A method the server does not know (-32601) where a tool expected `expected`'s methods: most likely the URL
    /// names another service's path.
    public static func unknownMethod(_ method: String, expected: String) -> String {
        "the server does not know '\(method)': this URL does not serve \(capitalized(expected)) "
            + "(\(capitalized(expected)) is on /\(expected))"
    }

    private static func capitalized(_ name: String) -> String { name.prefix(1).uppercased() + name.dropFirst() }

    /// A chat line or message over `limit`: "message too large: 2000000 bytes, the limit is 8 KiB".
    public static func tooLarge(_ bytes: Int, limit: Int) -> String {
        "message too large: \(bytes) bytes, the limit is \(size(limit))"
    }

    /// `bytes` as a person reads it: "1 MiB", "8 KiB", or "1000 bytes".
    public static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}

extension RPCError {
    /// Whether the server refused the request as over its rate (-32000 "rate limited",
    /// docs/wire-protocol.md#limits): it was not run, and may be sent again after a pause.
    public var isRateLimited: Bool {
        remoteError.map { $0.code == -32000 && $0.message == "rate limited" } ?? false
    }
}
