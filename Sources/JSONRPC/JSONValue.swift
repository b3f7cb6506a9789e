import Foundation

/// Any JSON value, with integers and floating-point numbers kept apart so that integer ids and counters
/// survive a round trip exactly (docs/wire-protocol.md#ids: Kurento ids are integers).
///
/// Build values with literals (`["value": "pong", "n": 1]`), read them with the accessors and subscripts,
/// and turn them into text with ``jsonText``.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits in `Int`.
    case int(Int)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object. Key order is not significant in JSON and is not preserved.
    case object([String: JSONValue])
}

// MARK: - Accessors

extension JSONValue {
    /// The string, if this is a string.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The integer, if this is an integer (or a double with an exact integer value).
    public var intValue: Int? {
        switch self {
        case .int(let i): i
        case .double(let d): Int(exactly: d)
        default: nil
        }
    }
    /// The number as a `Double`, if this is a number.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }
    /// The Boolean, if this is a Boolean.
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    /// The members, if this is an object.
    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }
    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// The member `key` of an object; `nil` for a missing key or a non-object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { o[key] } else { nil }
    }

    /// The element at `index` of an array; `nil` when out of range or not an array.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let a) = self, a.indices.contains(index) { a[index] } else { nil }
    }

    /// The `value` member of a Kurento-wrapped result (docs/wire-protocol.md#kurento-conventions: a non-object result
    /// travels as `{"value": <result>, "sessionId": …}`, which is why `joinRoom` callers read `result.value`).
    public var value: JSONValue? { self["value"] }

    /// The result with Kurento's wrapping removed: the `value` member when the object holds nothing but
    /// `value` and an optional `sessionId`; otherwise the object without its injected `sessionId`;
    /// any other value unchanged.
    public var unwrapped: JSONValue {
        guard case .object(var members) = self else { return self }
        members["sessionId"] = nil
        if members.count == 1, let inner = members["value"] { return inner }
        return .object(members)
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

// MARK: - Text

extension JSONValue {
    /// Parses JSON text (any value, not only objects and arrays).
    ///
    /// - Throws: ``JSONParseError`` for malformed text or nesting deeper than `maxDepth`.
    public init(parsing text: String, maxDepth: Int = JSONParser.defaultMaxDepth) throws {
        self = try JSONParser.parse(text, maxDepth: maxDepth)
    }

    /// Compact JSON text for this value, produced by a small serializer rather than
    /// `JSONSerialization.data(withJSONObject:)`, which costs ~20 µs per response on Linux
    /// (docs/libwebsockets.md#measured-limits).
    public var jsonText: String {
        var writer = JSONWriter()
        writer.write(self)
        return writer.output
    }

    /// Compact JSON text with every object's keys in order: equal values have equal texts (for comparing values
    /// as text, as a cluster's Redis does).
    public var canonicalText: String {
        var writer = JSONWriter(sortsKeys: true)
        writer.write(self)
        return writer.output
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { jsonText }
}

// MARK: - Codable

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? container.decode(Int.self) {
            self = .int(i)
        } else if let d = try? container.decode(Double.self) {
            self = .double(d)
        } else if let s = try? container.decode(String.self) {
            self = .string(s)
        } else if let a = try? container.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .int(let i): try container.encode(i)
        case .double(let d): try container.encode(d)
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }

    /// Converts any `Encodable` value into a ``JSONValue``, as `JSONEncoder` at its default strategies would
    /// write it (`nil` optionals left out, `Data` as Base64, non-finite numbers refused with `EncodingError`),
    /// without writing text.
    public init(encoding value: some Encodable) throws {
        self = try JSONValueEncoder.encode(value)
    }

    /// Decodes this value as `type`, as `JSONDecoder` at its default strategies would decode its text (the same
    /// `DecodingError` cases and coding paths), without writing text.
    public func decode<T: Decodable>(as type: T.Type = T.self) throws -> T {
        try JSONValueDecoder.decode(type, from: self)
    }
}
