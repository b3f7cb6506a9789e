import JSONRPC

/// SockJS's framing of its WebSocket transport, both ways (docs/wire-protocol.md#sockjs): pure text in, text out.
///
/// From the protocol's own specification, sockjs/sockjs-protocol `sockjs-protocol-0.3.3.py` ("Protocol and
/// framing", "JSON Unicode Encoding"), and where it leaves a choice, as Spring's SockJS server does it
/// (spring-projects/spring-framework `spring-websocket/.../sockjs/frame/SockJsFrame.java` and
/// `AbstractSockJsMessageCodec.java`), which is what the stock Kurento servers run:
///
/// - the server sends `o` when a session opens, `h` as a heartbeat, `a[…]` carrying messages (a JSON array of
///   strings, each one message), and `c[code,"reason"]` before it closes;
/// - a message string escapes, beyond standard JSON quoting, the characters browsers mangle: U+200C–U+200F,
///   U+2028–U+202F, U+2060–U+206F and U+FFF0–U+FFFF, as `\uXXXX` (the specification's `escapable_by_server`);
/// - the client sends one JSON array of strings per WebSocket message (or a single JSON string), each string one
///   message; an empty WebSocket message is ignored; anything else is broken data, on which the server ends the
///   session.
package enum SockJSFrame {
    /// The open frame, sent once when a session opens.
    package static let open = "o"
    /// The heartbeat frame, sent when nothing else went out for the heartbeat interval.
    package static let heartbeat = "h"
    /// The close code and reason on broken client data: Spring's `CloseStatus.BAD_DATA` (1007, no reason).
    package static let brokenDataClose: (code: UInt16, reason: String) = (1007, "")

    /// Client data that is neither a JSON array of strings nor a JSON string.
    package struct Malformed: Error, Sendable, Hashable, CustomStringConvertible {
        /// Why the data was refused.
        package var reason: String
        package var description: String { "broken SockJS data: \(reason)" }
    }

    /// The message frame `a[…]` carrying `messages`, in order.
    package static func messages(_ messages: [String]) -> String {
        var writer = JSONWriter(capacity: messages.reduce(8) { $0 + $1.utf8.count + 8 })
        writer.write(raw: "a")
        writer.write(.array(messages.map(JSONValue.string)))
        return escapingBrowserMangled(writer.output)
    }

    /// The close frame `c[code,"reason"]`.
    package static func close(code: UInt16, reason: String) -> String {
        var writer = JSONWriter(capacity: reason.utf8.count + 16)
        writer.write(raw: "c")
        writer.write(.array([.int(Int(code)), .string(reason)]))
        return escapingBrowserMangled(writer.output)
    }

    /// The messages of one client WebSocket message: the strings of a JSON array of strings, or the one JSON string;
    /// none for an empty WebSocket message.
    /// - Throws: ``Malformed`` for anything else (broken JSON, a number, an object, an array holding a non-string).
    package static func clientMessages(_ payload: String) throws(Malformed) -> [String] {
        guard !payload.isEmpty else { return [] }
        let value: JSONValue
        do {
            value = try JSONParser.parse(payload)
        } catch {
            throw Malformed(reason: "\(error)")
        }
        switch value {
        case .string(let message):
            return [message]
        case .array(let elements):
            return try elements.map { element throws(Malformed) in
                guard case .string(let message) = element else { throw Malformed(reason: "a non-string in the array") }
                return message
            }
        default:
            throw Malformed(reason: "neither an array of strings nor a string")
        }
    }

    /// Whether the server escapes `scalar` as `\uXXXX` inside a JSON string (the specification's
    /// `escapable_by_server`, as Spring's `isSockJsSpecialChar`; the control characters are JSON-escaped already).
    static func isBrowserMangled(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200C...0x200F, 0x2028...0x202F, 0x2060...0x206F, 0xFFF0...0xFFFF: true
        default: false
        }
    }

    /// `json` with every browser-mangled character escaped; `json` itself when it has none (UTF-8 lead bytes 0xE2
    /// and 0xEF start every one of them, so text without either is returned at once).
    static func escapingBrowserMangled(_ json: String) -> String {
        guard json.utf8.contains(where: { $0 == 0xE2 || $0 == 0xEF }) else { return json }
        var escaped = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            guard isBrowserMangled(scalar) else { escaped.append(scalar); continue }
            let hex = String(scalar.value, radix: 16)
            escaped.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
        }
        return String(escaped)
    }
}
