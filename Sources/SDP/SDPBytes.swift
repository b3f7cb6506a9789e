/// A range of the UTF-8 bytes of the text being parsed.
///
/// The parser works on byte ranges of one contiguous buffer and creates a `String` only for the values the
/// model keeps (a `Substring` per line and per field, and `String` round trips, cost most of the time).
/// Every split happens at an ASCII byte, so each range of a valid `String` is valid UTF-8 and converts back to
/// exactly the text it covers.
typealias SDPBytes = Slice<UnsafeBufferPointer<UInt8>>

extension Slice where Base == UnsafeBufferPointer<UInt8> {
    /// The bytes as a `String` (no repair happens: the bytes come from a valid `String`, split at ASCII bytes).
    var string: String { String(decoding: UnsafeBufferPointer(rebasing: self), as: UTF8.self) }

    /// `true` when the bytes are exactly those of `literal`.
    func equals(_ literal: StaticString) -> Bool {
        guard count == literal.utf8CodeUnitCount else { return false }
        let other = literal.utf8Start
        var offset = 0
        for byte in self {
            guard byte == other[offset] else { return false }
            offset += 1
        }
        return true
    }
}

extension SDPGrammar {
    /// `true` when `bytes` is a non-empty RFC 8866 token.
    static func isToken(_ bytes: SDPBytes) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy(isTokenChar)
    }

    /// Parses `1*DIGIT` into `T`, like ``decimal(_:as:)`` for text.
    static func decimal<T: FixedWidthInteger>(_ bytes: SDPBytes, as _: T.Type = T.self) -> T? {
        guard !bytes.isEmpty else { return nil }
        var result: T = 0
        for byte in bytes {
            guard isDigit(byte) else { return nil }
            let (times10, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(T(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            result = sum
        }
        return result
    }

    /// Splits `bytes` on single spaces into `fields` (cleared first, its capacity reused), keeping empty
    /// pieces like ``fields(_:)``: the empty input is one empty field.
    static func split(_ bytes: SDPBytes, into fields: inout [SDPBytes]) {
        fields.removeAll(keepingCapacity: true)
        var start = bytes.startIndex
        var index = start
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: " ") {
                fields.append(bytes[start..<index])
                start = index + 1
            }
            index += 1
        }
        fields.append(bytes[start..<bytes.endIndex])
    }
}
