import Foundation
import JSONRPC
import Testing

/// `JSONValue(encoding:)` and `decode(as:)` go straight between Codable values and ``JSONValue``; Foundation's
/// `JSONEncoder`/`JSONDecoder` (through text) are the witness: same values, same errors at the same paths.
@Suite struct JSONValueCodingTests {
    enum Color: String, Codable, Equatable { case red, blue }

    struct Inner: Codable, Equatable {
        var name: String
        var tags: [String]
        var ratio: Float?
    }

    struct Sample: Codable, Equatable {
        var text: String
        var int: Int
        var small: Int8
        var big: UInt64
        var double: Double
        var flag: Bool
        var missing: String?
        var color: Color
        var inner: Inner
        var list: [Inner]
        var map: [String: Int]
        var numbered: [Int: String]
        var nested: [[Int?]]
        var data: Data
        var url: URL
        var any: JSONValue
    }

    static let sample = Sample(
        text: "a \"quoted\"\n line é 😀", int: -42, small: 7, big: 1 << 40, double: 2.5, flag: true, missing: nil,
        color: .blue, inner: Inner(name: "x", tags: [], ratio: 0.5),
        list: [Inner(name: "y", tags: ["p", "q"], ratio: nil)], map: ["one": 1, "two": 2], numbered: [3: "three"],
        nested: [[1, nil], []], data: Data([0, 1, 254, 255]), url: URL(string: "https://example.org/a?b=c")!,
        any: ["k": [1, 2.5, "s", nil, true]])

    class Base: Codable { var id = 1 }
    final class Derived: Base, @unchecked Sendable {  // (test-only; never shared)
        var extra = "e"
        enum CodingKeys: String, CodingKey { case extra }
        override init() { super.init() }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            extra = try container.decode(String.self, forKey: .extra)
            try super.init(from: container.superDecoder())
        }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(extra, forKey: .extra)
            try super.encode(to: container.superEncoder())
        }
    }

    static func foundation(_ value: some Encodable) throws -> JSONValue {
        try JSONValue(parsing: String(decoding: try JSONEncoder().encode(value), as: UTF8.self))
    }

    @Test func encodingMatchesJSONEncoder() throws {
        #expect(try JSONValue(encoding: Self.sample) == Self.foundation(Self.sample))
        #expect(try JSONValue(encoding: Derived()) == Self.foundation(Derived()))
        #expect(try JSONValue(encoding: Derived()) == ["extra": "e", "super": ["id": 1]])
        #expect(try JSONValue(encoding: [Color.red]) == Self.foundation([Color.red]))
        #expect(try JSONValue(encoding: Optional<Int>.none) == Self.foundation(Optional<Int>.none))
        let three = (try JSONValue(encoding: 3.0), try Self.foundation(3.0))
        #expect(three.0 == three.1, "\(three)")
    }

    @Test func decodingRoundTripsAndMatchesJSONDecoder() throws {
        let json = try JSONValue(encoding: Self.sample)
        let viaFoundation = try JSONDecoder().decode(Sample.self, from: Data(json.jsonText.utf8))
        #expect(try json.decode(as: Sample.self) == Self.sample)
        #expect(viaFoundation == Self.sample)
        let derived = try JSONValue(encoding: Derived()).decode(as: Derived.self)
        #expect(derived.extra == "e" && derived.id == 1)
        // Integers from numbers with an exact integer value, as JSONDecoder reads them
        #expect(try JSONValue.double(3).decode(as: Int.self) == 3)
        #expect(try JSONValue.int(3).decode(as: Double.self) == 3)
    }

    @Test func nonFiniteNumbersAreRefusedAsJSONEncoderRefusesThem() {
        #expect(throws: EncodingError.self) { try JSONValue(encoding: ["x": Double.nan]) }
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(["x": Double.nan]) }
    }

    /// What distinguishes a decoding error for a caller: its case, the type it names and the path.
    static func shape(_ error: any Error) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?: return "keyNotFound \(key.stringValue) at \(path(context.codingPath))"
        case .typeMismatch(let type, let context)?: return "typeMismatch \(type) at \(path(context.codingPath))"
        case .valueNotFound(let type, let context)?: return "valueNotFound \(type) at \(path(context.codingPath))"
        case .dataCorrupted(let context)?: return "dataCorrupted at \(path(context.codingPath))"
        default: return "other: \(error)"
        }
    }

    @Test(arguments: [
        #"{"name": 1, "tags": []}"#,
        #"{"tags": []}"#,
        #"{"name": null, "tags": []}"#,
        #"{"name": "n", "tags": ["a", 2]}"#,
        #"{"name": "n", "tags": "a"}"#,
        #"{"name": "n", "tags": [], "ratio": "x"}"#,
        #"[1]"#,
        #"null"#,
    ])
    func decodingErrorsMatchJSONDecoder(text: String) throws {
        let mine = #expect(throws: DecodingError.self) { try JSONValue(parsing: text).decode(as: Inner.self) }
        let theirs = #expect(throws: DecodingError.self) { try JSONDecoder().decode(Inner.self, from: Data(text.utf8)) }
        let (a, b) = (Self.shape(try #require(mine)), Self.shape(try #require(theirs)))
        #expect(a == b, "ours: \(a); JSONDecoder: \(b)")
    }

    @Test(arguments: [#"{"small": 300}"#, #"{"small": 1.5}"#, #"{"small": -1}"#, #"{"color": "green"}"#])
    func outOfRangeNumbersAndUnknownCasesAreDataCorruptedAtTheirKey(text: String) throws {
        struct Narrow: Codable { var small: UInt8?; var color: Color? }
        let mine = #expect(throws: DecodingError.self) { try JSONValue(parsing: text).decode(as: Narrow.self) }
        let theirs = #expect(throws: DecodingError.self) { try JSONDecoder().decode(Narrow.self, from: Data(text.utf8)) }
        // The same case; for a number out of range JSONDecoder's path is empty, ours names the key.
        let key = text.contains("small") ? "small" : "color"
        #expect(Self.shape(try #require(mine)) == "dataCorrupted at \(key)")
        #expect(Self.shape(try #require(theirs)).hasPrefix("dataCorrupted at"))
    }
}
