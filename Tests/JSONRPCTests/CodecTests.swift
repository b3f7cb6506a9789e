import SignalingSupport
import Foundation
import JSONRPC
import Testing

@Suite struct CodecTests {
    @Test func integersStayExactAndDoublesStayDoubles() throws {
        #expect(try JSONValue(parsing: "9223372036854775807") == .int(Int.max))
        #expect(try JSONValue(parsing: "-9223372036854775808") == .int(Int.min))
        #expect(try JSONValue(parsing: "9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try JSONValue(parsing: "1.0") == .double(1.0))
        #expect(try JSONValue(parsing: "-0") == .int(0))
        #expect(try JSONValue(parsing: "2.5e3") == .double(2500))
        #expect(JSONValue.int(Int.max).jsonText == "9223372036854775807")
    }

    @Test func valuesRoundTripThroughText() throws {
        let value: JSONValue = [
            "s": "quote \" backslash \\ newline \n tab \t nul \u{0} bell \u{7} é 😀",
            "a": [1, 2.5, true, false, nil, [:], []],
            "o": ["nested": ["deep": [1, [2, [3]]]]],
        ]
        #expect(try JSONValue(parsing: value.jsonText) == value)
    }

    @Test func escapesIncludingSurrogatePairsDecode() throws {
        #expect(try JSONValue(parsing: #""a\u00e9\n\ud83d\ude00\/""#) == .string("aé\n😀/"))
    }

    @Test(arguments: ["", "01", "[1,]", #"{"a":1,}"#, "tru", "nul", "\"\u{01}\"", "1 2", "[", "-", "1.", "1e", "{'a':1}",
                      #"{"a" 1}"#, "\"unterminated", #""\x""#, "[1 2]", "NaN", "+1", ".5", "1e400", "-1e400"])
    func malformedTextIsRejected(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
    }

    @Test func nestingUpTo128IsAcceptedAndDeeperIsRejectedWithoutRecursingFurther() throws {
        func nested(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
        _ = try JSONValue(parsing: nested(128))
        #expect { try JSONValue(parsing: nested(129)) } throws: { ($0 as? JSONParseError)?.kind == .tooDeep }
        // 100 000 levels: would overflow the stack of a recursive decoder that checks depth afterwards.
        #expect { try JSONValue(parsing: nested(100_000)) } throws: { ($0 as? JSONParseError)?.kind == .tooDeep }
    }

    @Test func idsArePreservedExactlyAsTheirTextAndFractionalIdsAreValid() {
        guard case .single(.success(.request(let s))) = RPCCodec.decode(#"{"jsonrpc":"2.0","method":"m","id":"1"}"#),
              case .single(.success(.request(let n))) = RPCCodec.decode(#"{"jsonrpc":"2.0","method":"m","id":1}"#),
              case .single(.success(.request(let z))) = RPCCodec.decode(#"{"jsonrpc":"2.0","method":"m","id":null}"#)
        else { Issue.record("requests did not decode"); return }
        #expect(s.id == .string("1"))
        #expect(n.id == .number(1))
        #expect(z.id == .null)
        #expect(s.jsonText.contains(#""id":"1""#))
        // JSON-RPC 2.0 §4: ids SHOULD NOT have fractions, so they may: kept as their text, written back the same
        for text in ["1.5", "-0", "1e3", "100000000000000000000"] {
            guard case .single(.success(.request(let f))) = RPCCodec.decode(#"{"jsonrpc":"2.0","method":"m","id":\#(text)}"#)
            else { Issue.record("id \(text) was refused"); continue }
            #expect(f.id == .numberText(text))
            #expect(f.jsonText.contains(#""id":\#(text),"#))
        }
        for text in [#"{"a":1}"#, "[1]", "true"] {
            guard case .single(.failure(let invalid)) = RPCCodec.decode(#"{"jsonrpc":"2.0","method":"m","id":\#(text)}"#)
            else { Issue.record("id \(text) was accepted"); continue }
            #expect(invalid.id == nil)
        }
    }

    @Test func envelopeIsStrict() {
        let invalid = [
            #"{"method":"m","id":1}"#,                                  // no jsonrpc
            #"{"jsonrpc":"1.0","method":"m","id":1}"#,                  // wrong version
            #"{"jsonrpc":"2.0","method":"m","params":3,"id":1}"#,       // scalar params
            #"{"jsonrpc":"2.0","id":1}"#,                               // neither method nor result
            #"{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"x"}}"#,  // both
            #"{"jsonrpc":"2.0","id":1,"error":{"code":"1","message":"x"}}"#,           // string code
        ]
        for text in invalid {
            guard case .single(.failure) = RPCCodec.decode(text) else { Issue.record("accepted \(text)"); continue }
        }
    }

    @Test func paramsStayRawUntilAskedForAndDecodeTyped() throws {
        struct Named: Decodable, Equatable { let minuend: Int; let subtrahend: Int }
        let text = #"{"jsonrpc":"2.0","method":"subtract","params":{"subtrahend":23,"minuend":42},"id":3}"#
        guard case .single(.success(.request(let request))) = RPCCodec.decode(text) else {
            Issue.record("did not decode"); return
        }
        #expect(try request.rawParams?.decode(as: Named.self) == Named(minuend: 42, subtrahend: 23))
        #expect(request.params == ["subtrahend": 23, "minuend": 42])
        // Forwarding re-emits the params text verbatim.
        #expect(request.jsonText.contains(#""params":{"subtrahend":23,"minuend":42}"#))
    }

    @Test func kurentoWrappedResultsUnwrap() {
        let wrapped: JSONValue = ["value": "ok", "sessionId": "s"]
        #expect(wrapped.value == "ok")
        #expect(wrapped.unwrapped == "ok")
        #expect((["a": 1, "sessionId": "s"] as JSONValue).unwrapped == ["a": 1])
    }
}

/// The writer checked by a witness we did not write: Foundation's JSONSerialization must read everything we
/// write, and our parser must read it back unchanged.
@Suite struct WriterWitnessTests {
    private func randomValue(_ depth: Int, _ rng: inout SeededRandomNumberGenerator) -> JSONValue {
        let scalars: [Unicode.Scalar] = ["a", "\"", "\\", "\n", "\u{0}", "\u{1F}", "é", "😀", "/", " ", "\u{7F}", "\u{2028}"]
        switch Int.random(in: 0..<(depth > 4 ? 6 : 8), using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .int(Int.random(in: Int.min...Int.max, using: &rng))
        case 3: return .double(Double.random(in: -1e300...1e300, using: &rng))
        case 4, 5:
            var s = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0..<8, using: &rng) { s.append(scalars.randomElement(using: &rng)!) }
            return .string(String(s))
        case 6: return .array((0..<Int.random(in: 0..<4, using: &rng)).map { _ in randomValue(depth + 1, &rng) })
        default:
            var members: [String: JSONValue] = [:]
            for i in 0..<Int.random(in: 0..<4, using: &rng) { members["k\(i)\"\n"] = randomValue(depth + 1, &rng) }
            return .object(members)
        }
    }

    @Test func foundationReadsWhatWeWriteAndWeReadItBackUnchanged() throws {
        var rng = SeededRandomNumberGenerator(seed: 2026)
        for _ in 0..<2000 {
            let value = randomValue(0, &rng)
            let text = value.jsonText
            #expect(throws: Never.self, "\(text)") {
                _ = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            }
            #expect(try JSONValue(parsing: text) == value, "\(text)")
        }
    }
}
