/// Request or notification params as received: kept as raw JSON text until someone asks for them, so routing
/// on the envelope (id, method) never pays for decoding params (docs/libwebsockets.md#measured-limits).
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
        // The raw text was validated (syntax and depth, at the endpoint's limit) when the envelope was read, so
        // this cannot fail, and its depth is already bounded.
        case .raw(let text): return (try? JSONParser.parse(text, maxDepth: .max)) ?? .null
        }
    }

    /// Decodes the params into `T` (``JSONValue/decode(as:)``).
    public func decode<T: Decodable>(as type: T.Type = T.self) throws -> T {
        try value.decode(as: T.self)
    }

    /// Whether two requests carry the same params: equal text, or else equal parsed values (key order and
    /// spacing do not matter; `1` and `1.0` differ, as ``JSONValue`` keeps integers and doubles apart).
    static func sameContent(_ lhs: RPCParams?, _ rhs: RPCParams?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): return true
        case (let l?, let r?): return l.storage == r.storage || l.value == r.value
        default: return false
        }
    }

    func write(to writer: inout JSONWriter) {
        switch storage {
        case .value(let v): writer.write(v)
        case .raw(let text): writer.write(raw: text)
        }
    }
}
