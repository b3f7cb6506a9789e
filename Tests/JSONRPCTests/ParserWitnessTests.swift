import SignalingSupport
import Foundation
import JSONRPC
import Testing

/// The parser checked against a witness we did not write: on thousands of mutations of valid JSON-RPC messages,
/// our parser and Foundation's JSONSerialization agree on what is JSON, and on the value when both accept it.
@Suite struct ParserWitnessTests {
    private static let seeds = SpecificationExample.all.map(\.request) + [
        #"{"jsonrpc":"2.0","id":7,"result":{"value":"pong","sessionId":"abc"}}"#,
        #"{"jsonrpc":"2.0","id":8,"error":{"code":40007,"message":"reconnection error","data":[1.5e3,-0.25,true,null]}}"#,
        #"{"s":"tab\t quote\" slash\/ e\u00e9","n":[0,-1,12345678901234,3.25E-2]}"#,
    ]

    @Test func parserAgreesWithFoundationOnMutatedMessages() throws {
        var rng = SeededRandomNumberGenerator(seed: 7)
        let alphabet = Array(#"{}[]",:0123456789-+.eEtrufalsn \"\\/abu"#.utf8)
        var disagreements: [String] = []
        for _ in 0..<5000 {
            var bytes = Array(Self.seeds.randomElement(using: &rng)!.utf8)
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[at] = alphabet.randomElement(using: &rng)!
                case 1: bytes.remove(at: at)
                default: bytes.insert(alphabet.randomElement(using: &rng)!, at: at)
                }
                if bytes.isEmpty { bytes = [UInt8(ascii: "0")] }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let ours = try? JSONValue(parsing: text)
            let theirs = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            if ours == nil, theirs != nil, Self.hasTrailingComma(bytes) {
                continue  // Foundation on Linux accepts trailing commas; RFC 8259 (and we) do not
            } else if (ours == nil) != (theirs == nil) {
                disagreements.append(text)
            } else if let ours, let theirs,
                      let reencoded = try? JSONSerialization.data(withJSONObject: theirs, options: [.fragmentsAllowed]),
                      let back = try? JSONValue(parsing: String(decoding: reencoded, as: UTF8.self)),
                      !Self.numericallyEqual(back, ours)
            {
                disagreements.append(text)
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    /// A `,` followed (after whitespace) by `]` or `}`, outside strings.
    private static func hasTrailingComma(_ bytes: [UInt8]) -> Bool {
        var inString = false, escaped = false, lastSignificant: UInt8 = 0
        for b in bytes {
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
                continue
            }
            if b == UInt8(ascii: "\"") { inString = true }
            if (b == UInt8(ascii: "]") || b == UInt8(ascii: "}")) && lastSignificant == UInt8(ascii: ",") { return true }
            if b != 0x20 { lastSignificant = b }
        }
        return false
    }

    /// Equality that lets Foundation write 1.0 as 1 (it does not keep the int/double distinction).
    private static func numericallyEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { numericallyEqual($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { numericallyEqual(value, $0) } ?? false }
        default:
            if let p = a.doubleValue, let q = b.doubleValue { return p == q || abs(p - q) <= abs(p) * 1e-15 }
            return a == b
        }
    }
}
