extension JSONParser {
    /// Feeds the value at nesting `depth` into `hasher` as its parsed form would (``ContentDigest``), without building
    /// it: strings by their decoded UTF-8, numbers as ``JSONValue`` reads them (an `int` or a `double`), arrays in
    /// order, objects whatever their key order (their members' hashes are summed). `length` grows by one per value
    /// plus the bytes of every string and key.
    mutating func digest(depth: Int, into hasher: inout Hasher, length: inout Int) throws {
        guard let byte = peek() else { throw fail("unexpected end of input") }
        length += 1
        switch byte {
        case UInt8(ascii: "{"):
            var members = 0, count = 0
            try container(close: UInt8(ascii: "}"), depth: depth) { parser in
                var member = Hasher()
                length += try parser.digestString(into: &member)
                try parser.expect(UInt8(ascii: ":"))
                try parser.digest(depth: depth + 1, into: &member, length: &length)
                members &+= member.finalize()
                count += 1
            }
            hasher.combine(UInt8(ascii: "{"))
            hasher.combine(count)
            hasher.combine(members)
        case UInt8(ascii: "["):
            hasher.combine(UInt8(ascii: "["))
            try container(close: UInt8(ascii: "]"), depth: depth) { parser in
                try parser.digest(depth: depth + 1, into: &hasher, length: &length)
            }
            hasher.combine(UInt8(ascii: "]"))
        case UInt8(ascii: "\""):
            hasher.combine(UInt8(ascii: "\""))
            length += try digestString(into: &hasher)
        default:
            // Literals and numbers: as parsed (no allocation but a double's text).
            switch try value(depth: depth, build: true) {
            case .bool(let flag): hasher.combine(UInt8(ascii: "b")); hasher.combine(flag)
            case .int(let number): hasher.combine(UInt8(ascii: "i")); hasher.combine(number)
            case .double(let number): hasher.combine(UInt8(ascii: "d")); hasher.combine(number)
            default: hasher.combine(UInt8(ascii: "n"))
            }
        }
    }

    /// Feeds the string at the cursor into `hasher` as its decoded UTF-8 bytes and their count (so that strings end
    /// where they end); returns the count. A string without escapes (almost all) is hashed where it lies, with no
    /// String made: the digest is on every remembered request's path (docs/wire-protocol.md#dedupe).
    private mutating func digestString(into hasher: inout Hasher) throws -> Int {
        if let plain = plainString() {
            hasher.combine(plain.count)
            hasher.combine(bytes: plain)
            return plain.count
        }
        var text = try string(build: true)
        let count = text.utf8.count
        hasher.combine(count)
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        return count
    }
}
