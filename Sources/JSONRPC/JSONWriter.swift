/// Writes compact JSON text. Hand-written because `JSONSerialization.data(withJSONObject:)` is slow on Linux
/// (LWS-NOTES §4.2a) and loses the int/double distinction.
struct JSONWriter {
    private(set) var output = ""

    init(capacity: Int = 128) { output.reserveCapacity(capacity) }

    mutating func write(_ value: JSONValue) {
        switch value {
        case .null: output += "null"
        case .bool(let b): output += b ? "true" : "false"
        case .int(let i): output += String(i)
        case .double(let d):
            // JSON has no NaN or infinity; `null` is what JavaScript's JSON.stringify writes for them.
            output += d.isFinite ? d.description : "null"
        case .string(let s): write(string: s)
        case .array(let elements):
            output += "["
            for (i, element) in elements.enumerated() {
                if i > 0 { output += "," }
                write(element)
            }
            output += "]"
        case .object(let members):
            output += "{"
            var first = true
            for (key, member) in members {
                if !first { output += "," }
                first = false
                write(key: key)
                write(member)
            }
            output += "}"
        }
    }

    /// Writes `"key":`.
    mutating func write(key: String) {
        write(string: key)
        output += ":"
    }

    /// Appends already-serialized JSON text verbatim (a raw `params` being forwarded).
    mutating func write(raw: String) { output += raw }


    mutating func write(string: String) {
        output += "\""
        if !Self.needsEscaping(string) {
            output += string
        } else {
            for scalar in string.unicodeScalars {
                switch scalar {
                case "\"": output += "\\\""
                case "\\": output += "\\\\"
                case "\n": output += "\\n"
                case "\r": output += "\\r"
                case "\t": output += "\\t"
                case "\u{08}": output += "\\b"
                case "\u{0C}": output += "\\f"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }

    /// Whether `string` holds a quote, a backslash or a control character. Scans the contiguous UTF-8 storage of
    /// native strings eight bytes at a time (``JSONStringScan``).
    private static func needsEscaping(_ string: String) -> Bool {
        let found = string.utf8.withContiguousStorageIfAvailable { bytes in
            JSONStringScan.firstSpecial(in: bytes, from: 0) < bytes.count
        }
        if let found { return found }
        return string.utf8.contains(where: JSONStringScan.isSpecial)
    }
}
