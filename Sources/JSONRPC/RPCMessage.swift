import Foundation

/// Request or notification params as received: kept as raw JSON text until someone asks for them, so routing
/// on the envelope (id, method) never pays for decoding params (LWS-NOTES §4.2a).
public struct RPCParams: Sendable, Hashable {
    enum Storage: Sendable, Hashable {
        case value(JSONValue)
        case raw(String)
    }
    let storage: Storage

    /// Params from a value (should be an array or an object, JSON-RPC 2.0 §4.2).
    public init(_ value: JSONValue) { storage = .value(value) }
    init(raw: String) { storage = .raw(raw) }

    /// The params as a JSON value (decoded on each access when they arrived as text).
    public var value: JSONValue {
        switch storage {
        case .value(let v): return v
        // The raw text was validated (syntax and depth) when the envelope was read, so this cannot fail.
        case .raw(let text): return (try? JSONParser.parse(text)) ?? .null
        }
    }

    /// Decodes the params straight from their text into `T`, without an intermediate ``JSONValue``.
    public func decode<T: Decodable>(as type: T.Type = T.self) throws -> T {
        switch storage {
        case .value(let v): return try v.decode(as: T.self)
        case .raw(let text): return try JSONDecoder().decode(T.self, from: Data(text.utf8))
        }
    }

    func write(to writer: inout JSONWriter) {
        switch storage {
        case .value(let v): writer.write(v)
        case .raw(let text): writer.write(raw: text)
        }
    }
}

/// A request: a call that expects a response with the same ``id``.
public struct RPCRequest: Sendable, Hashable {
    /// The id the response must carry.
    public var id: RequestID
    /// The method name.
    public var method: String
    /// The params, if any.
    public var rawParams: RPCParams?

    /// Creates a request.
    public init(id: RequestID, method: String, params: JSONValue? = nil) {
        self.init(id: id, method: method, rawParams: params.map(RPCParams.init))
    }
    init(id: RequestID, method: String, rawParams: RPCParams?) {
        self.id = id
        self.method = method
        self.rawParams = rawParams
    }

    /// The params as a JSON value.
    public var params: JSONValue? { rawParams?.value }

    /// The request as JSON text.
    public var jsonText: String { RPCMessage.request(self).jsonText }
}

/// A notification: a call without id, which never gets a response.
public struct RPCNotification: Sendable, Hashable {
    /// The method name.
    public var method: String
    /// The params, if any.
    public var rawParams: RPCParams?

    /// Creates a notification.
    public init(method: String, params: JSONValue? = nil) {
        self.init(method: method, rawParams: params.map(RPCParams.init))
    }
    init(method: String, rawParams: RPCParams?) {
        self.method = method
        self.rawParams = rawParams
    }

    /// The params as a JSON value.
    public var params: JSONValue? { rawParams?.value }
}

/// A response: the result or the error of the request with the same ``id``.
public struct RPCResponse: Sendable, Hashable {
    /// The id of the request answered (`null` when it could not be read).
    public var id: RequestID
    /// The result, or the error object.
    public var outcome: Result<JSONValue, RPCErrorObject>

    /// Creates a response.
    public init(id: RequestID, outcome: Result<JSONValue, RPCErrorObject>) {
        self.id = id
        self.outcome = outcome
    }

    /// A success response.
    public static func result(_ value: JSONValue, id: RequestID) -> RPCResponse { .init(id: id, outcome: .success(value)) }
    /// An error response.
    public static func error(_ error: RPCErrorObject, id: RequestID) -> RPCResponse { .init(id: id, outcome: .failure(error)) }

    /// The response as JSON text.
    public var jsonText: String { RPCMessage.response(self).jsonText }
}

/// One JSON-RPC 2.0 message.
public enum RPCMessage: Sendable, Hashable {
    /// A call expecting a response.
    case request(RPCRequest)
    /// A call without response.
    case notification(RPCNotification)
    /// The answer to a request.
    case response(RPCResponse)

    /// The message as compact JSON text.
    public var jsonText: String {
        var writer = JSONWriter()
        write(to: &writer)
        return writer.output
    }

    func write(to writer: inout JSONWriter) {
        writer.write(raw: "{\"jsonrpc\":\"2.0\"")
        switch self {
        case .request(let r):
            writer.write(raw: ",")
            writer.write(key: "id")
            writer.write(r.id.json)
            writeCall(method: r.method, params: r.rawParams, to: &writer)
        case .notification(let n):
            writeCall(method: n.method, params: n.rawParams, to: &writer)
        case .response(let r):
            writer.write(raw: ",")
            writer.write(key: "id")
            writer.write(r.id.json)
            writer.write(raw: ",")
            switch r.outcome {
            case .success(let value):
                writer.write(key: "result")
                writer.write(value)
            case .failure(let error):
                writer.write(key: "error")
                writer.write(error.json)
            }
        }
        writer.write(raw: "}")
    }

    private func writeCall(method: String, params: RPCParams?, to writer: inout JSONWriter) {
        writer.write(raw: ",")
        writer.write(key: "method")
        writer.write(string: method)
        if let params {
            writer.write(raw: ",")
            writer.write(key: "params")
            params.write(to: &writer)
        }
    }

    /// Several messages as one batch array (JSON-RPC 2.0 §6).
    public static func batchText(_ messages: [RPCMessage]) -> String {
        var writer = JSONWriter(capacity: 64 * messages.count)
        writer.write(raw: "[")
        for (i, message) in messages.enumerated() {
            if i > 0 { writer.write(raw: ",") }
            message.write(to: &writer)
        }
        writer.write(raw: "]")
        return writer.output
    }
}
