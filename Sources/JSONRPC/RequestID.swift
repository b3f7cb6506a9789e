/// A JSON-RPC request id: a string, a number or `null`, preserved exactly as it arrived (JSON-RPC 2.0 §4), so
/// the response carries back the very text the request did.
///
/// Integers that fit in `Int` and are written the usual way are ``number(_:)``. Any other JSON number (a
/// fraction such as `1.5`, `-0`, an exponent such as `1e3`, an integer wider than 64 bits) is valid too: the
/// specification says ids SHOULD NOT have fractional parts, not MUST NOT. Such an id is ``numberText(_:)``,
/// the number's text as sent, and two ids are the same id only when their text is the same (`1e3` is not
/// `1000`). This package's own clients send integers only, as Kurento servers expect.
public enum RequestID: Sendable, Hashable, CustomStringConvertible {
    /// A string id.
    case string(String)
    /// An integer id written in its plain decimal form (what this package's clients send).
    case number(Int)
    /// Any other JSON number, as the exact text it arrived as (`1.5`, `-0`, `1e3`, `18446744073709551616`).
    /// Build one with ``init(numberText:)``, which checks the grammar.
    case numberText(String)
    /// `null`: the id of an error reply to a request whose id could not be read.
    case null

    /// The id as a JSON value. A ``numberText(_:)`` id becomes the nearest `Double` here, which may lose digits;
    /// the wire text of a message always carries the exact text.
    public var json: JSONValue {
        switch self {
        case .string(let s): .string(s)
        case .number(let n): .int(n)
        case .numberText(let text): (try? JSONParser.parse(text)) ?? .null
        case .null: .null
        }
    }

    /// The id a JSON value denotes, or `nil` when the value cannot be an id (an object, an array or a Boolean).
    /// A `Double` becomes ``numberText(_:)`` with its shortest round-tripping text.
    public init?(json: JSONValue) {
        switch json {
        case .string(let s): self = .string(s)
        case .int(let n): self = .number(n)
        case .double(let d): self.init(numberText: JSONValue.double(d).jsonText)
        case .null: self = .null
        default: return nil
        }
    }

    /// The id written as the JSON number `text`: ``number(_:)`` when `text` is the plain decimal form of an
    /// `Int`, else ``numberText(_:)``; `nil` when `text` is not a JSON number (RFC 8259 §6).
    public init?(numberText text: String) {
        guard Self.isJSONNumber(text) else { return nil }
        if let n = Int(text), String(n) == text { self = .number(n) } else { self = .numberText(text) }
    }

    public var description: String {
        var writer = JSONWriter(capacity: 16)
        writer.write(id: self)
        return writer.output
    }

    /// Whether `text` is exactly one JSON number (RFC 8259 §6), by the codec's own number grammar: it starts with
    /// `-` or a digit, ends with a digit (so no whitespace around it), and the parser validates it.
    static func isJSONNumber(_ text: String) -> Bool {
        func digit(_ byte: UInt8?) -> Bool { byte.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false }
        guard text.utf8.first == UInt8(ascii: "-") || digit(text.utf8.first), digit(text.utf8.last) else { return false }
        do {
            try JSONParser.withParser(text, maxDepth: 1) { (parser: inout JSONParser) throws -> Void in
                _ = try parser.value(depth: 0, build: false)
                try parser.expectEnd()
            }
            return true
        } catch {
            return false
        }
    }
}

extension RequestID: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    public init(integerLiteral value: Int) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONWriter {
    /// Writes an id exactly: a ``RequestID/numberText(_:)`` id as its own text.
    mutating func write(id: RequestID) {
        switch id {
        case .string(let s): write(string: s)
        case .number(let n): write(raw: String(n))
        case .numberText(let text): write(raw: text)
        case .null: write(raw: "null")
        }
    }
}
