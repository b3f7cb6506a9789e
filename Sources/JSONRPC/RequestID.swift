/// A JSON-RPC request id: a string, an integer or `null`, preserved exactly as it arrived
/// (JSON-RPC 2.0 §4). Fractional ids are rejected as invalid requests: the specification says ids
/// SHOULD NOT have fractions, and Kurento servers require integers (PROTOCOL §0).
public enum RequestID: Sendable, Hashable, CustomStringConvertible {
    /// A string id.
    case string(String)
    /// An integer id (what this package's clients send).
    case number(Int)
    /// `null`: the id of an error reply to a request whose id could not be read.
    case null

    /// The id as JSON.
    public var json: JSONValue {
        switch self {
        case .string(let s): .string(s)
        case .number(let n): .int(n)
        case .null: .null
        }
    }

    /// The id a JSON value denotes, or `nil` when the value cannot be an id.
    public init?(json: JSONValue) {
        switch json {
        case .string(let s): self = .string(s)
        case .int(let n): self = .number(n)
        case .null: self = .null
        default: return nil
        }
    }

    public var description: String { json.jsonText }
}

extension RequestID: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    public init(integerLiteral value: Int) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
}
