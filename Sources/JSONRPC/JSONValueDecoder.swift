import Foundation

/// Decodes `Decodable` values straight from a ``JSONValue``, with the semantics of Foundation's `JSONDecoder` at
/// its default strategies (which ``JSONValue/decode(as:)`` used before, through text): the same coding paths and
/// error cases, integers from numbers with an exact integer value, `Data` from Base64, `URL` from a string. No text
/// is written or parsed on the way, which made typed notifications and results cost a third of a client's time.
struct JSONValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Decodes `type` from `value`.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try unbox(value, as: type, path: [])
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw Self.mismatch([String: Any].self, value, codingPath)
        }
        return KeyedDecodingContainer(KeyedContainer(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw Self.mismatch([Any].self, value, codingPath) }
        return UnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleContainer(decoder: self) }

    // MARK: Unboxing

    static func unbox<T: Decodable>(_ value: JSONValue, as type: T.Type, path: [any CodingKey]) throws -> T {
        switch type {
        case is JSONValue.Type: return value as! T
        case is String.Type: return try string(value, path) as! T
        case is Bool.Type: return try bool(value, path) as! T
        case is Int.Type: return try integer(value, Int.self, path) as! T
        case is Double.Type: return try double(value, path) as! T
        case is Data.Type:
            let text = try string(value, path)
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "Encountered Data is not valid Base64."))
            }
            return data as! T
        case is URL.Type:
            let text = try string(value, path)
            guard let url = URL(string: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "Invalid URL string."))
            }
            return url as! T
        case is Decimal.Type:
            switch value {
            case .int(let i): return Decimal(i) as! T
            case .double(let d): return Decimal(d) as! T
            default: throw mismatch(Decimal.self, value, path)
            }
        default:
            return try T(from: JSONValueDecoder(value: value, codingPath: path))
        }
    }

    static func string(_ value: JSONValue, _ path: [any CodingKey]) throws -> String {
        guard case .string(let s) = value else { throw mismatch(String.self, value, path) }
        return s
    }

    static func bool(_ value: JSONValue, _ path: [any CodingKey]) throws -> Bool {
        guard case .bool(let b) = value else { throw mismatch(Bool.self, value, path) }
        return b
    }

    /// (An integer out of range names its key in the path; JSONDecoder's path is empty there.)
    static func integer<T: FixedWidthInteger>(_ value: JSONValue, _ type: T.Type, _ path: [any CodingKey]) throws -> T {
        let exact: T?
        switch value {
        case .int(let i): exact = T(exactly: i)
        case .double(let d): exact = T(exactly: d)
        default: throw mismatch(T.self, value, path)
        }
        guard let exact else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: path, debugDescription: "Parsed JSON number <\(value.jsonText)> does not fit in \(T.self)."))
        }
        return exact
    }

    static func double(_ value: JSONValue, _ path: [any CodingKey]) throws -> Double {
        switch value {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: throw mismatch(Double.self, value, path)
        }
    }

    static func float(_ value: JSONValue, _ path: [any CodingKey]) throws -> Float {
        let d: Double
        switch value {
        case .int(let i): d = Double(i)
        case .double(let v): d = v
        default: throw mismatch(Float.self, value, path)
        }
        guard d.isFinite, abs(d) <= Double(Float.greatestFiniteMagnitude) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: path, debugDescription: "Parsed JSON number <\(value.jsonText)> does not fit in Float."))
        }
        return Float(d)
    }

    /// `valueNotFound` for `null`, `typeMismatch` for any other wrong kind, as `JSONDecoder` reports them.
    static func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
        if value == .null {
            return .valueNotFound(type, .init(
                codingPath: path, debugDescription: "Cannot get value of type \(type) -- found null value instead"))
        }
        return .typeMismatch(type, .init(
            codingPath: path, debugDescription: "Expected to decode \(type) but found \(value.kindName) instead."))
    }
}

extension JSONValue {
    /// The JSON kind, as decoding errors name it.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .int, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "dictionary"
        }
    }
}

/// A coding key for an array index, as decoding errors' paths name elements.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
