@testable import JSONRPC
import Testing

/// The word-at-a-time scan of JSON strings agrees with a byte-by-byte one wherever the special byte sits.
@Suite struct JSONStringScanTests {
    private func naive(_ bytes: [UInt8], from start: Int) -> Int {
        bytes[start...].firstIndex(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) ?? bytes.count
    }

    private func scan(_ bytes: [UInt8], from start: Int) -> Int {
        bytes.withUnsafeBufferPointer { JSONStringScan.firstSpecial(in: $0, from: start) }
    }

    @Test func everyByteValueAtEveryPositionOfEveryLength() {
        for length in 1...24 {
            for position in 0..<length {
                for value in UInt8.min...UInt8.max {
                    // Filler around the probe: plain ASCII, and high UTF-8 bytes, which must never count as special.
                    for filler: UInt8 in [UInt8(ascii: "x"), 0xC3, 0x7F, 0x20, 0x80, 0xFF] {
                        var bytes = [UInt8](repeating: filler, count: length)
                        bytes[position] = value
                        for start in [0, min(position, 3)] {
                            #expect(scan(bytes, from: start) == naive(bytes, from: start),
                                    "length \(length) position \(position) byte \(value) filler \(filler) start \(start)")
                        }
                    }
                }
            }
        }
    }

    @Test func theFirstOfSeveralSpecialBytesIsFound() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let length = Int.random(in: 0...64, using: &generator)
            let bytes = (0..<length).map { _ in
                Bool.random(using: &generator) ? UInt8.random(in: 0x20...0x7E, using: &generator)
                    : [0x00, 0x1F, 0x22, 0x5C, 0xE2, 0x82, 0xAC].randomElement(using: &generator)!
            }
            #expect(scan(bytes, from: 0) == naive(bytes, from: 0), "\(bytes)")
        }
    }

    @Test func parserAndWriterStillRoundTripStringsWithEscapesAnywhere() throws {
        for length in 0...20 {
            for position in 0..<max(length, 1) {
                for special in ["\"", "\\", "\n", "\u{01}", "é", "€"] {
                    var characters = Array(repeating: "a", count: length)
                    if length > 0 { characters[position] = special }
                    let text = characters.joined()
                    let json = JSONValue.string(text).jsonText
                    #expect(try JSONValue(parsing: json) == .string(text), "\(json)")
                }
            }
        }
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: "\"abcdefgh\u{01}ijk\"") }
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: "\"abcdefghijklmnop") }
    }
}
