import Foundation

extension KurentoMediaServerDouble {
    /// A method's error: a JSON-RPC error object. `type` becomes `data: {"type": …}` (every SM7 handler rewraps
    /// KurentoExceptions so); errors built by JRH or JRU themselves carry no `data`.
    struct RequestFailure: Error, Sendable {
        var code: Int
        var message: String
        var type: String?

        /// A KurentoException (KEX code and type name).
        static func kurento(_ code: Int, _ type: String, _ message: String) -> RequestFailure {
            RequestFailure(code: code, message: message, type: type)
        }

        /// KMS: MSET `getMediaObject` (and the DOC describe example): the id is unknown or was released.
        static func objectNotFound(_ id: String) -> RequestFailure {
            .kurento(40101, "MEDIA_OBJECT_NOT_FOUND", "Object '\(id)' not found")
        }

        /// KMS: TPL-MARSH: a required or ill-typed operation or constructor parameter.
        static func marshall(_ message: String) -> RequestFailure {
            .kurento(40001, "MARSHALL_ERROR", message)
        }

        /// KMS: JRU `checkParameter` / `getValue`: a top-level param missing or of the wrong type (no data).
        static func serverError(_ message: String) -> RequestFailure {
            RequestFailure(code: -32000, message: message, type: nil)
        }

        var object: [String: Any] {
            var error: [String: Any] = ["code": code, "message": message]
            if let type { error["data"] = ["type": type] }
            return error
        }
    }

    /// What a method answers: the members of `result`, or `null` (`closeSession`).
    enum MethodResult {
        case members([String: Any])
        case null

        var json: Any {
            switch self {
            case .members(let members): members
            case .null: NSNull()
            }
        }

        /// `result.sessionId`, which the socket is tied to after the reply (SM7 `process`, WST7 `storeConnection`).
        var sessionID: String? {
            if case .members(let members) = self { return members["sessionId"] as? String }
            return nil
        }
    }

    /// The text of one frame, parsed as jsoncpp's `Reader::parse` does: any JSON value at the top, and when the text
    /// goes on after the first complete object or array, that first one (jsoncpp does not reject trailing text;
    /// Kurento/kurento-jsonrpc-js PR #1: "Kurento then grabs the first JSON object"). `nil`: unparsable.
    static func parseJSON(_ text: String) -> Any? {
        if let value = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) {
            return value
        }
        guard let end = endOfFirstValue(in: Array(text.utf8)) else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(text.utf8.prefix(end)), options: [])
    }

    /// The byte offset just past the first complete top-level object or array of `bytes`.
    private static func endOfFirstValue(in bytes: [UInt8]) -> Int? {
        var depth = 0
        var inString = false
        var escaped = false
        var started = false
        for (offset, byte) in bytes.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                started = true
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0, started { return offset + 1 }
                if depth < 0 { return nil }
            case UInt8(ascii: "\""):
                guard started else { return nil }
                inString = true
            default:
                guard started else { return nil }
            }
        }
        return nil
    }

    /// One frame of JSON: compact, keys in alphabetical order, `/` unescaped, as jsoncpp's `StreamWriterBuilder` with
    /// `indentation = ""` writes it (SM7 `ServerMethods::process`; WIRE-RTMP).
    static func serialize(_ object: Any) -> String {
        let data = (try? JSONSerialization.data(
            withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])) ?? Data("null".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// `{"id":…,"jsonrpc":"2.0","result":…}` (JRH `Handler::process`).
    static func resultText(id: Any, _ result: MethodResult) -> String {
        serialize(["id": id, "jsonrpc": "2.0", "result": result.json])
    }

    /// `{"error":{…},"id":…,"jsonrpc":"2.0"}`. Errors never carry a sessionId (SM7 `getSessionId`).
    static func errorText(id: Any, _ failure: RequestFailure) -> String {
        serialize(["id": id, "jsonrpc": "2.0", "error": failure.object])
    }

    /// The JSON type of a value from `JSONSerialization`, told apart as jsoncpp's `Json::Value` does.
    enum JSONKind {
        case null, bool, int, real, string, array, object
    }

    static func kind(of value: Any?) -> JSONKind {
        switch value {
        case nil, is NSNull: return .null
        case is String: return .string
        case is [Any]: return .array
        case is [String: Any]: return .object
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c", "B": return .bool
            case "d", "f": return .real
            default: return .int
            }
        default: return .null
        }
    }
}
