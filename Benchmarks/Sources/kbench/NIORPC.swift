/// The JSON-RPC 2.0 envelope of the SwiftNIO baseline, as a Swift user would write it with Foundation's `Codable`
/// (JSONEncoder/JSONDecoder). It stands alone: nothing here comes from our JSONRPC module.
enum NIORPC {
    /// Any JSON value. Decoding tries each kind in turn, the usual way with a single-value container (a failed
    /// try throws and is caught, as in the common `AnyCodable`-style enums).
    enum Value: Codable, Sendable, Equatable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([Value])
        case object([String: Value])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let string = try? container.decode(String.self) {
                self = .string(string)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let array = try? container.decode([Value].self) {
                self = .array(array)
            } else {
                self = .object(try container.decode([String: Value].self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool(let bool): try container.encode(bool)
            case .number(let number): try container.encode(number)
            case .string(let string): try container.encode(string)
            case .array(let array): try container.encode(array)
            case .object(let object): try container.encode(object)
            }
        }
    }

    /// A request id: a number or a string.
    enum ID: Codable, Sendable, Hashable {
        case number(Int)
        case string(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int.self) {
                self = .number(number)
            } else {
                self = .string(try container.decode(String.self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .number(let number): try container.encode(number)
            case .string(let string): try container.encode(string)
            }
        }
    }

    /// A request, or a notification when `id` is absent.
    struct Request: Codable, Sendable {
        var jsonrpc = "2.0"
        var method: String
        var params: Value?
        var id: ID?
    }

    struct ErrorObject: Codable, Sendable {
        var code: Int
        var message: String
    }

    /// A response: `result` or `error`; `id` is null when the request's id could not be read.
    struct Response: Codable, Sendable {
        var jsonrpc = "2.0"
        var id: ID?
        var result: Value?
        var error: ErrorObject?

        static func failure(id: ID?, code: Int, message: String) -> Response {
            Response(id: id, error: ErrorObject(code: code, message: message))
        }

        private enum CodingKeys: String, CodingKey { case jsonrpc, id, result, error }

        /// `id` is written even when nil (JSON-RPC 2.0 wants `"id":null` then); exactly one of result and error.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(jsonrpc, forKey: .jsonrpc)
            try container.encode(id, forKey: .id)
            if let error {
                try container.encode(error, forKey: .error)
            } else {
                try container.encode(result ?? .null, forKey: .result)
            }
        }
    }
}
