import Foundation

/// Encodes `Encodable` values straight into a ``JSONValue``, with the semantics of Foundation's `JSONEncoder` at
/// its default strategies (which ``JSONValue/init(encoding:)`` used before, through text and a parse): `nil`
/// optionals left out, `Data` as Base64, `URL` as its absolute string, a value that encodes nothing as `{}`, and
/// non-finite floating-point numbers refused.
final class JSONValueEncoder: Encoder {
    /// A value under construction: containers hand out references so that nested containers can fill them in.
    final class Node {
        enum Kind { case value, array, object, deferred }
        let kind: Kind
        var scalar = JSONValue.null
        var elements: [Node] = []
        var members: [String: Node] = [:]
        /// For a superclass's part (`superEncoder`): the encoder it was handed, read when the value is built.
        var encoder: JSONValueEncoder?

        init(_ kind: Kind) { self.kind = kind }
        init(_ scalar: JSONValue) {
            kind = .value
            self.scalar = scalar
        }
        init(deferred encoder: JSONValueEncoder) {
            kind = .deferred
            self.encoder = encoder
        }

        var value: JSONValue {
            switch kind {
            case .value: scalar
            case .array: .array(elements.map(\.value))
            case .object: .object(members.mapValues(\.value))
            case .deferred: encoder?.node?.value ?? .object([:])
            }
        }
    }

    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// What the value encoded so far; `nil` until it asks for a container.
    fileprivate(set) var node: Node?

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

    /// Encodes `value`.
    static func encode(_ value: some Encodable) throws -> JSONValue {
        try box(value, path: []).value
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer<Key>(node: claim(.object), codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(node: claim(.array), codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(encoder: self) }

    /// This encoder's node, made of `kind` if it has none yet (a second keyed container reuses the first).
    private func claim(_ kind: Node.Kind) -> Node {
        if let node, node.kind == kind { return node }
        let fresh = Node(kind)
        node = fresh
        return fresh
    }

    fileprivate func set(_ value: JSONValue) { node = Node(value) }

    // MARK: Boxing

    /// The node of `value` encoded at `path`.
    static func box(_ value: some Encodable, path: [any CodingKey]) throws -> Node {
        switch value {
        case let json as JSONValue: return Node(json)
        case let string as String: return Node(.string(string))
        case let bool as Bool: return Node(.bool(bool))
        case let int as Int: return Node(.int(int))
        case let double as Double: return Node(try number(double, path))
        case let data as Data: return Node(.string(data.base64EncodedString()))
        case let url as URL: return Node(.string(url.absoluteString))
        case let decimal as Decimal: return Node(number(decimal))
        default:
            let encoder = JSONValueEncoder(codingPath: path)
            try value.encode(to: encoder)
            return encoder.node ?? Node(.object)
        }
    }

    static func number(_ double: Double, _ path: [any CodingKey]) throws -> JSONValue {
        guard double.isFinite else {
            throw EncodingError.invalidValue(double, .init(
                codingPath: path, debugDescription: "Unable to encode \(double) directly in JSON."))
        }
        // JSONEncoder writes an integral value without a fraction ("3"), which reads back as an integer.
        if let int = Int(exactly: double) { return .int(int) }
        return .double(double)
    }

    static func number<T: BinaryInteger>(_ integer: T, _ path: [any CodingKey]) throws -> JSONValue {
        guard let int = Int(exactly: integer) else {
            // (UInt and UInt64 above Int.max: JSON text would carry them; JSONValue keeps integers as Int.)
            return .double(Double(integer))
        }
        return .int(int)
    }

    /// A `Decimal` as a number: an integer when it is one that fits, else the nearest `Double`.
    static func number(_ decimal: Decimal) -> JSONValue {
        let double = NSDecimalNumber(decimal: decimal).doubleValue
        if let int = Int(exactly: double), Decimal(int) == decimal { return .int(int) }
        return .double(double)
    }
}

extension JSONValueEncoder {
    /// One value.
    struct SingleContainer: SingleValueEncodingContainer, ScalarSink {
        let encoder: JSONValueEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }
        var nextPath: [any CodingKey] { codingPath }

        func put(_ value: JSONValue) { encoder.set(value) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            encoder.node = try JSONValueEncoder.box(value, path: codingPath)
        }
    }
}

/// A container that takes whole values one at a time (a single value, an array's next element): the scalar
/// `encode` overloads of `SingleValueEncodingContainer` and `UnkeyedEncodingContainer`, written once.
protocol ScalarSink {
    /// The coding path of the value `put` receives next.
    var nextPath: [any CodingKey] { get }
    /// Takes the next value.
    mutating func put(_ value: JSONValue)
}

extension ScalarSink {
    mutating func encodeNil() { put(.null) }
    mutating func encode(_ value: Bool) { put(.bool(value)) }
    mutating func encode(_ value: String) { put(.string(value)) }
    mutating func encode(_ value: Int) { put(.int(value)) }
    mutating func encode(_ value: Double) throws { put(try JSONValueEncoder.number(value, nextPath)) }
    mutating func encode(_ value: Float) throws { put(try JSONValueEncoder.number(Double(value), nextPath)) }
    mutating func encode(_ value: Int8) throws { put(try JSONValueEncoder.number(value, nextPath)) }
    mutating func encode(_ value: Int16) throws { put(try JSONValueEncoder.number(value, nextPath)) }
    mutating func encode(_ value: Int32) throws { put(try JSONValueEncoder.number(value, nextPath)) }
    mutating func encode(_ value: Int64) throws { put(try JSONValueEncoder.number(value, nextPath)) }
    mutating func encode(_ value: UInt) throws { put(try JSONValueEncoder.number(value, nextPath)) }
    mutating func encode(_ value: UInt8) throws { put(try JSONValueEncoder.number(value, nextPath)) }
    mutating func encode(_ value: UInt16) throws { put(try JSONValueEncoder.number(value, nextPath)) }
    mutating func encode(_ value: UInt32) throws { put(try JSONValueEncoder.number(value, nextPath)) }
    mutating func encode(_ value: UInt64) throws { put(try JSONValueEncoder.number(value, nextPath)) }
}
