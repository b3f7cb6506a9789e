extension JSONValueDecoder {
    /// An object's members, by key.
    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: JSONValue]
        let codingPath: [any CodingKey]

        var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        private func member(_ key: Key) throws -> JSONValue {
            guard let value = members[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
            }
            return value
        }

        func decodeNil(forKey key: Key) throws -> Bool { try member(key) == .null }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try JSONValueDecoder.unbox(try member(key), as: type, path: codingPath + [key])
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            try JSONValueDecoder.bool(try member(key), codingPath + [key])
        }
        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            try JSONValueDecoder.string(try member(key), codingPath + [key])
        }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            try JSONValueDecoder.double(try member(key), codingPath + [key])
        }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
            try JSONValueDecoder.float(try member(key), codingPath + [key])
        }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }

        private func integer<T: FixedWidthInteger>(_ key: Key) throws -> T {
            try JSONValueDecoder.integer(try member(key), T.self, codingPath + [key])
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try JSONValueDecoder(value: try member(key), codingPath: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try JSONValueDecoder(value: try member(key), codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            JSONValueDecoder(value: members["super"] ?? .null, codingPath: codingPath + [SuperKey()])
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            JSONValueDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
        }
    }

    /// An array's elements, in order.
    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let elements: [JSONValue]
        let codingPath: [any CodingKey]
        private(set) var currentIndex = 0

        init(elements: [JSONValue], codingPath: [any CodingKey]) {
            self.elements = elements
            self.codingPath = codingPath
        }

        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        private var path: [any CodingKey] { codingPath + [IndexKey(currentIndex)] }

        private mutating func next(_ type: Any.Type) throws -> JSONValue {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "Unkeyed container is at end."))
            }
            return elements[currentIndex]
        }

        mutating func decodeNil() throws -> Bool {
            guard try next(JSONValue.self) == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let value = try JSONValueDecoder.unbox(try next(type), as: type, path: path)
            currentIndex += 1
            return value
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            let container = try JSONValueDecoder(value: try next(type), codingPath: path).container(keyedBy: type)
            currentIndex += 1
            return container
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let container = try JSONValueDecoder(value: try next([Any].self), codingPath: path).unkeyedContainer()
            currentIndex += 1
            return container
        }

        mutating func superDecoder() throws -> any Decoder {
            let decoder = JSONValueDecoder(value: try next(JSONValue.self), codingPath: path)
            currentIndex += 1
            return decoder
        }
    }

    /// One value.
    struct SingleContainer: SingleValueDecodingContainer {
        let decoder: JSONValueDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }
        private var value: JSONValue { decoder.value }

        func decodeNil() -> Bool { value == .null }
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try JSONValueDecoder.unbox(value, as: type, path: codingPath)
        }
        func decode(_ type: Bool.Type) throws -> Bool { try JSONValueDecoder.bool(value, codingPath) }
        func decode(_ type: String.Type) throws -> String { try JSONValueDecoder.string(value, codingPath) }
        func decode(_ type: Double.Type) throws -> Double { try JSONValueDecoder.double(value, codingPath) }
        func decode(_ type: Float.Type) throws -> Float { try JSONValueDecoder.float(value, codingPath) }
        func decode(_ type: Int.Type) throws -> Int { try integer() }
        func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
        func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
        func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
        func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
        func decode(_ type: UInt.Type) throws -> UInt { try integer() }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

        private func integer<T: FixedWidthInteger>() throws -> T { try JSONValueDecoder.integer(value, T.self, codingPath) }
    }
}

/// The key of a superclass's encoding, `"super"`, as Foundation names it.
struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { guard stringValue == "super" else { return nil } }
    init?(intValue: Int) { nil }
}
