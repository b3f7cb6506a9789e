/// Why JSON text was rejected. The JSON-RPC endpoints answer both kinds with -32700 (JSON-RPC 2.0 §5.1).
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The two ways text can be rejected.
    public enum Kind: Sendable, Hashable {
        /// Not JSON.
        case syntax
        /// Arrays and objects nested deeper than the limit (docs/wire-protocol.md#limits: 128).
        case tooDeep
    }
    /// What went wrong.
    public var kind: Kind
    /// The UTF-8 byte offset where it went wrong.
    public var offset: Int
    /// A short explanation.
    public var reason: String

    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

/// A strict RFC 8259 parser over UTF-8 bytes that enforces a nesting limit while it descends.
///
/// Why not `JSONSerialization`: it loses the int/double distinction behind `NSNumber`, and a recursive decoder
/// given 100 000 nested brackets overflows the stack. Here the depth check happens before each descent, so the
/// recursion never goes deeper than `maxDepth` (docs/wire-protocol.md#limits). The same scanner can also *skip* a value
/// (validate without building it), which is how the JSON-RPC envelope leaves `params` undecoded
/// (docs/libwebsockets.md#measured-limits).
public struct JSONParser {
    /// The nesting limit of docs/wire-protocol.md#limits.
    public static let defaultMaxDepth = 128

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private(set) var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// Parses `text` as one JSON value with nothing but whitespace around it.
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws -> JSONValue {
        try withParser(text, maxDepth: maxDepth) { parser in
            let value = try parser.value(depth: 0, build: true)
            try parser.expectEnd()
            return value
        }
    }

    /// Runs `body` with a parser over the UTF-8 bytes of `text`.
    static func withParser<T>(_ text: String, maxDepth: Int, _ body: (inout JSONParser) throws -> T) throws -> T {
        var text = text
        return try text.withUTF8 { buffer in
            var parser = JSONParser(bytes: buffer, maxDepth: maxDepth)
            return try body(&parser)
        }
    }

    // MARK: Scanning primitives

    func fail(_ reason: String, _ kind: JSONParseError.Kind = .syntax) -> JSONParseError {
        JSONParseError(kind: kind, offset: index, reason: reason)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// The next non-whitespace byte, without consuming it.
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return index < bytes.count ? bytes[index] : nil
    }

    mutating func expect(_ byte: UInt8) throws {
        guard peek() == byte else { throw fail("expected '\(Character(Unicode.Scalar(byte)))'") }
        index += 1
    }

    mutating func expectEnd() throws {
        if peek() != nil { throw fail("unexpected text after the value") }
    }

    /// The text of `range` as a String (used to keep `params` raw for later decoding).
    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    // MARK: Values

    /// Parses (`build`) or validates (`!build`, returning `.null`) one value at nesting `depth`.
    mutating func value(depth: Int, build: Bool) throws -> JSONValue {
        guard let byte = peek() else { throw fail("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"):
            var members: [String: JSONValue] = [:]
            try container(close: UInt8(ascii: "}"), depth: depth) { parser in
                let key = try parser.string(build: true)
                try parser.expect(UInt8(ascii: ":"))
                let member = try parser.value(depth: depth + 1, build: build)
                if build { members[key] = member }
            }
            return build ? .object(members) : .null
        case UInt8(ascii: "["):
            var elements: [JSONValue] = []
            try container(close: UInt8(ascii: "]"), depth: depth) { parser in
                let element = try parser.value(depth: depth + 1, build: build)
                if build { elements.append(element) }
            }
            return build ? .array(elements) : .null
        case UInt8(ascii: "\""):
            let s = try string(build: build)
            return build ? .string(s) : .null
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return try number(build: build)
        }
    }

    /// Walks the members of an object or array, checking the depth before descending.
    mutating func container(close: UInt8, depth: Int, member: (inout JSONParser) throws -> Void) throws {
        guard depth < maxDepth else { throw fail("nesting deeper than \(maxDepth)", .tooDeep) }
        index += 1
        if peek() == close { index += 1; return }
        while true {
            try member(&self)
            guard let next = peek() else { throw fail("unterminated container") }
            index += 1
            if next == close { return }
            guard next == UInt8(ascii: ",") else { throw fail("expected ',' or closing bracket") }
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("invalid literal") }
        for i in 0..<count where bytes[index + i] != word.utf8Start[i] { throw fail("invalid literal") }
        index += count
    }

    private mutating func number(build: Bool) throws -> JSONValue {
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") { negative = true; index += 1 }
        var integer = 0
        var overflow = false
        let digitsStart = index
        while index < bytes.count, let d = digit(bytes[index]) {
            // Accumulate negatively so Int.min parses exactly.
            let (m, o1) = integer.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.subtractingReportingOverflow(d)
            overflow = overflow || o1 || o2
            integer = s
            index += 1
        }
        let intDigits = index - digitsStart
        guard intDigits > 0 else { throw fail("invalid value") }
        if intDigits > 1, bytes[digitsStart] == UInt8(ascii: "0") { throw fail("leading zero in number") }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            try digits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            try digits()
        }
        guard build else { return .null }
        if isInteger, !overflow {
            if negative { return .int(integer) }
            if integer != .min { return .int(-integer) }
        }
        // A number beyond Double's range would become infinity, which JSON cannot carry back out: reject it.
        guard let d = Double(text(start..<index)), d.isFinite else { throw fail("number out of range") }
        return .double(d)
    }

    private func digit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private mutating func digits() throws {
        let start = index
        while index < bytes.count, digit(bytes[index]) != nil { index += 1 }
        if index == start { throw fail("expected a digit") }
    }

    // MARK: Strings

    /// The bytes of the string at the cursor, with the cursor moved past it, when it holds no escape (the common
    /// case, read without making a String); `nil`, the cursor unmoved, for anything else.
    mutating func plainString() -> UnsafeRawBufferPointer? {
        guard peek() == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        let end = JSONStringScan.firstSpecial(in: bytes, from: start)
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return nil }
        index = end + 1
        return UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<end]))
    }

    mutating func string(build: Bool) throws -> String {
        guard peek() == UInt8(ascii: "\"") else { throw fail("expected a string") }
        index += 1
        let start = index
        // Fast path: no escapes, so the bytes are the string.
        index = JSONStringScan.firstSpecial(in: bytes, from: index)
        if index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                defer { index += 1 }
                return build ? text(start..<index) : ""
            }
            if b < 0x20 { throw fail("control character in string") }
        }
        // Escapes: the runs between them are copied as bytes, each escape appended as UTF-8, one String at the end.
        var utf8: [UInt8] = []
        if build {
            utf8.reserveCapacity(min(bytes.count - start, 4096))
            utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        }
        while index < bytes.count {
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                return build ? String(decoding: utf8, as: UTF8.self) : ""
            case UInt8(ascii: "\\"):
                index += 1
                let scalar = try escape()
                if build { UTF8.encode(scalar) { utf8.append($0) } }
            case ..<0x20:
                throw fail("control character in string")
            default:
                // A run of plain bytes (the input came from a String, so it is valid UTF-8).
                let run = index
                index = JSONStringScan.firstSpecial(in: bytes, from: index)
                if build { utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index])) }
            }
        }
        throw fail("unterminated string")
    }

    private mutating func escape() throws -> Unicode.Scalar {
        guard index < bytes.count else { throw fail("unterminated escape") }
        let b = bytes[index]
        index += 1
        switch b {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hex4()
            if (0xD800..<0xDC00).contains(high), index + 1 < bytes.count,
               bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            {
                let save = index
                index += 2
                let low = try hex4()
                if (0xDC00..<0xE000).contains(low) {
                    return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
                }
                index = save
            }
            // A lone surrogate is legal JSON text but not a Unicode scalar: replace it, as Foundation does.
            return Unicode.Scalar(high) ?? "\u{FFFD}"
        default:
            throw fail("invalid escape")
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let d: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
            default: throw fail("invalid \\u escape")
            }
            v = v << 4 | UInt32(d)
            index += 1
        }
        return v
    }
}
