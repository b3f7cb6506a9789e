/// A JSON-RPC error object (JSON-RPC 2.0 §5.1). Handlers throw it to answer with exactly this error.
public struct RPCErrorObject: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error code; -32768…-32000 are reserved by the specification.
    public var code: Int
    /// A short description.
    public var message: String
    /// Extra information. Kurento servers put the `sessionId` here (docs/wire-protocol.md#kurento-conventions).
    public var data: JSONValue?

    /// Creates an error object.
    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// -32700: the text was not JSON (or was nested too deep). Endpoints send it without `detail`, as in
    /// JSON-RPC 2.0 §7, and log the detail instead.
    public static func parseError(_ detail: String? = nil) -> RPCErrorObject {
        RPCErrorObject(code: -32700, message: "Parse error", data: detail.map { .string($0) })
    }
    /// -32600: the JSON is not a valid request object.
    public static func invalidRequest(_ detail: String? = nil) -> RPCErrorObject {
        RPCErrorObject(code: -32600, message: "Invalid Request", data: detail.map { .string($0) })
    }
    /// -32601: no handler for the method. No `data`, so replies match JSON-RPC 2.0 §7 exactly.
    public static let methodNotFound = RPCErrorObject(code: -32601, message: "Method not found")
    /// -32602: the params do not fit the method; `detail` should name the param (docs/wire-protocol.md#error-codes).
    public static func invalidParams(_ detail: String) -> RPCErrorObject {
        RPCErrorObject(code: -32602, message: "Invalid params", data: .string(detail))
    }
    /// -32603: the handler failed in an unexpected way.
    public static func internalError(_ detail: String? = nil) -> RPCErrorObject {
        RPCErrorObject(code: -32603, message: "Internal error", data: detail.map { .string($0) })
    }

    /// -32001, "handler timed out": the handler did not finish within the server's handler deadline (its task
    /// was cancelled); `data` names the `method` and the `timeoutMs`. A retry of the same request gets it again.
    public static let handlerTimedOutCode = -32001

    /// The error object as JSON.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["code": .int(code), "message": .string(message)]
        if let data { members["data"] = data }
        return .object(members)
    }

    /// Reads an error object; `nil` unless it has an integer `code` and a string `message`.
    public init?(json: JSONValue) {
        guard let code = json["code"], case .int(let c) = code, let m = json["message"]?.stringValue else { return nil }
        self.init(code: c, message: m, data: json["data"])
    }

    /// `JSON-RPC error 400: message ({"sessionId":"68b66a…"})`: the data with every session id redacted
    /// (``JSONValue/redactingSessionIds``); ``json`` and ``data`` keep them whole.
    public var description: String {
        "JSON-RPC error \(code): \(message)" + (data.map { " (\($0.redactingSessionIds.jsonText))" } ?? "")
    }
}
