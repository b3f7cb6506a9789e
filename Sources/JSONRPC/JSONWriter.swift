/// Writes compact JSON text. Hand-written because `JSONSerialization.data(withJSONObject:)` is slow on Linux
/// (docs/libwebsockets.md#measured-limits) and loses the int/double distinction.
///
/// The text grows as UTF-8 bytes and becomes a `String` once, in ``output``: a message is some twenty small pieces
/// (quotes, colons, commas, keys), and appending each to a `String` cost a few hundred instructions, a third of a
/// client's call.
package struct JSONWriter {
    private var bytes: [UInt8] = []
    /// Object members in key order (a canonical text: equal values, equal texts).
    private let sortsKeys: Bool

    package init(capacity: Int = 512, sortsKeys: Bool = false) {
        self.sortsKeys = sortsKeys
        bytes.reserveCapacity(capacity)
    }

    /// The text written so far.
    package var output: String { String(decoding: bytes, as: UTF8.self) }

    package mutating func write(_ value: JSONValue) {
        switch value {
        case .null: write(raw: "null")
        case .bool(let b): write(raw: b ? "true" : "false")
        case .int(let i): write(integer: i)
        case .double(let d):
            // JSON has no NaN or infinity; `null` is what JavaScript's JSON.stringify writes for them.
            write(raw: d.isFinite ? d.description : "null")
        case .string(let s): write(string: s)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            var first = true
            func member(_ key: String, _ value: JSONValue) {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                write(key: key)
                write(value)
            }
            if sortsKeys {
                for key in members.keys.sorted() { member(key, members[key]!) }
            } else {
                for (key, value) in members { member(key, value) }
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Writes `"key":`.
    mutating func write(key: String) {
        write(string: key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Appends already-serialized JSON text verbatim (a raw `params` being forwarded).
    package mutating func write(raw: String) {
        var raw = raw
        raw.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends an integer's decimal digits.
    mutating func write(integer: Int) {
        if integer == 0 { return bytes.append(UInt8(ascii: "0")) }
        if integer < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = integer.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // up to 20 digits, written backwards
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }

    /// Writes `string` as a JSON string: runs without a quote, backslash or control character are copied as they
    /// are (``JSONStringScan``), the rest escaped.
    mutating func write(string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var index = 0
            while index < utf8.count {
                let special = JSONStringScan.firstSpecial(in: utf8, from: index)
                if special > index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[index..<special])) }
                guard special < utf8.count else { break }
                escape(utf8[special])
                index = special + 1
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends the escape of a quote, a backslash or a control character.
    private mutating func escape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                      hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
        }
    }
}
