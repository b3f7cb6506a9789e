/// Character classes and number parsing shared by the SDP and candidate parsers (RFC 8866 §9, RFC 8839 §5.1).
enum SDPGrammar {
    /// RFC 8866 `token-char`: ALPHA / DIGIT and ``!#$%&'*+-.^_`{|}~``, as bit masks of the bytes 0–63 and
    /// 64–127 (one shift and test per byte; the attribute-name checks run on every `a=` line).
    static func isTokenChar(_ byte: UInt8) -> Bool {
        let low: UInt64 = 0x03FF_6CFA_0000_0000, high: UInt64 = 0x7FFF_FFFF_C7FF_FFFE
        if byte < 64 { return low >> UInt64(byte) & 1 != 0 }
        return byte < 128 && high >> UInt64(byte - 64) & 1 != 0
    }

    /// `true` when `text` is a non-empty RFC 8866 token.
    static func isToken(_ text: some StringProtocol) -> Bool {
        // The contiguous bytes when there are some: the generic index walk was the parser's top cost.
        if let result = text.utf8.withContiguousStorageIfAvailable({ !$0.isEmpty && $0.allSatisfy(isTokenChar) }) {
            return result
        }
        return !text.isEmpty && text.utf8.allSatisfy(isTokenChar)
    }

    /// RFC 8839 `ice-char`: ALPHA / DIGIT / "+" / "/".
    static func isIceChar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }

    /// RFC 5234 `VCHAR`: a visible ASCII character.
    static func isVisibleChar(_ byte: UInt8) -> Bool { byte >= 0x21 && byte <= 0x7E }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// Parses `1*DIGIT` (no sign, no spaces) into `T`, or `nil` when empty, not decimal or out of range.
    static func decimal<T: FixedWidthInteger>(_ text: some StringProtocol, as _: T.Type = T.self) -> T? {
        guard !text.isEmpty else { return nil }
        var result: T = 0
        for byte in text.utf8 {
            guard isDigit(byte) else { return nil }
            let (times10, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(T(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            result = sum
        }
        return result
    }

    /// Splits on single space bytes (not Characters: a space followed by a combining mark still separates,
    /// and byte splitting skips grapheme breaking), keeping empty pieces so that callers can reject doubled spaces.
    static func fields(_ text: some StringProtocol) -> [Substring] {
        Substring(text).utf8.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false).map(Substring.init)
    }
}
