import Foundation
import JSONRPC
import Testing

/// `jsonText` writes bytes and makes one String; Foundation's parser is the witness that the text is JSON and
/// means the same value.
@Suite struct JSONWriterTests {
    @Test(arguments: [0, 1, -1, 9, 10, -10, 1234567890, Int.max, Int.min])
    func integersAreWrittenInDecimal(value: Int) {
        #expect(JSONValue.int(value).jsonText == String(value))
    }

    @Test(arguments: ["", "plain", "quote \" backslash \\ slash /", "line\nreturn\rtab\tbell\u{07}nul\u{00}esc\u{1B}",
                      "\u{08}\u{0C}\u{1F}", "é 中文 😀 \u{7F}", String(repeating: "x\"", count: 300)])
    func stringsRoundTripThroughFoundation(text: String) throws {
        let written = JSONValue.array([.string(text)]).jsonText
        let parsed = try JSONSerialization.jsonObject(with: Data(written.utf8)) as? [String]
        #expect(parsed == [text])
        #expect(try JSONValue(parsing: written) == .array([.string(text)]))
    }

    @Test func controlCharactersUseShortEscapesOrFourLowercaseHexDigits() {
        #expect(JSONValue.string("\u{01}\n\u{1F}").jsonText == #""\u0001\n\u001f""#)
    }
}
