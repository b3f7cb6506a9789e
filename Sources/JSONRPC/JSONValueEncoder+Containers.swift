extension JSONValueEncoder {
    /// An object's members.
    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        private func set(_ value: JSONValue, _ key: Key) { node.members[key.stringValue] = Node(value) }

        mutating func encodeNil(forKey key: Key) { set(.null, key) }
        mutating func encode(_ value: Bool, forKey key: Key) { set(.bool(value), key) }
        mutating func encode(_ value: String, forKey key: Key) { set(.string(value), key) }
        mutating func encode(_ value: Int, forKey key: Key) { set(.int(value), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws {
            set(try JSONValueEncoder.number(value, codingPath + [key]), key)
        }
        mutating func encode(_ value: Float, forKey key: Key) throws {
            set(try JSONValueEncoder.number(Double(value), codingPath + [key]), key)
        }
        mutating func encode(_ value: Int8, forKey key: Key) throws { try integer(value, key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { try integer(value, key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { try integer(value, key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try integer(value, key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { try integer(value, key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { try integer(value, key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { try integer(value, key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { try integer(value, key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { try integer(value, key) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            node.members[key.stringValue] = try JSONValueEncoder.box(value, path: codingPath + [key])
        }

        private func integer<T: BinaryInteger>(_ value: T, _ key: Key) throws {
            set(try JSONValueEncoder.number(value, codingPath + [key]), key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            let child = Node(.object)
            node.members[key.stringValue] = child
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = Node(.array)
            node.members[key.stringValue] = child
            return UnkeyedContainer(node: child, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder { deferred("super", codingPath + [SuperKey()]) }

        mutating func superEncoder(forKey key: Key) -> any Encoder { deferred(key.stringValue, codingPath + [key]) }

        private func deferred(_ name: String, _ path: [any CodingKey]) -> any Encoder {
            let encoder = JSONValueEncoder(codingPath: path)
            node.members[name] = Node(deferred: encoder)
            return encoder
        }
    }

    /// An array's elements.
    struct UnkeyedContainer: UnkeyedEncodingContainer, ScalarSink {
        let node: Node
        let codingPath: [any CodingKey]
        var count: Int { node.elements.count }

        var nextPath: [any CodingKey] { codingPath + [IndexKey(count)] }

        func put(_ value: JSONValue) { node.elements.append(Node(value)) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            node.elements.append(try JSONValueEncoder.box(value, path: nextPath))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            let path = nextPath
            let child = Node(.object)
            node.elements.append(child)
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: path))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let path = nextPath
            let child = Node(.array)
            node.elements.append(child)
            return UnkeyedContainer(node: child, codingPath: path)
        }

        mutating func superEncoder() -> any Encoder {
            let encoder = JSONValueEncoder(codingPath: nextPath)
            node.elements.append(Node(deferred: encoder))
            return encoder
        }
    }
}
