import Foundation
import SDP
import TestSupport
import Testing

@Suite(.enabled(if: SDPFiles.corpusShouldRun, "sdp-transform corpus not found at ../shared/fixtures/sdp-transform; skipped"))
struct CorpusRoundTripTests {
    @Test func corpusHasTheExpectedTwentyFiveFiles() throws {
        #expect(try SDPFiles.corpusFileNames().count == 25)
    }

    @Test func everyValidFileRoundTripsByteForByte() throws {
        for name in try SDPFiles.corpusValidFileNames() {
            let text = try SDPFiles.corpusText(name)
            let parsed = try SessionDescription(parsing: text)
            #expect(parsed.serialized() == text, "\(name) did not round-trip")
        }
    }

    @Test func reparsingTheSerializedTextGivesTheSameModel() throws {
        for name in try SDPFiles.corpusValidFileNames() {
            let parsed = try SDPFiles.corpus(name)
            #expect(try SessionDescription(parsing: parsed.serialized()) == parsed, "\(name)")
        }
    }

    @Test func normalizingToCRLFTerminatesEveryLineWithCRLF() throws {
        for name in try SDPFiles.corpusValidFileNames() {
            let parsed = try SDPFiles.corpus(name)
            let crlf = parsed.serialized(normalizingToCRLF: true)
            #expect(crlf.hasSuffix("\r\n"), "\(name)")
            #expect(!crlf.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "\(name)")
            #expect(try SessionDescription(parsing: crlf).media == parsed.media, "\(name)")
        }
    }

    @Test func invalidFileIsRejectedStrictlyWithLineAndReason() throws {
        let text = try SDPFiles.corpusText("invalid.sdp")
        #expect(throws: SDPParseError(line: 7, reason: "unknown address type 'IP7', expected IP4 or IP6")) {
            try SessionDescription(parsing: text)
        }
    }

    @Test func invalidFileParsesLenientlyKeepingEveryLineAndReportingBoth() throws {
        let text = try SDPFiles.corpusText("invalid.sdp")
        let result = try SDPParser.parse(text, mode: .lenient)
        #expect(result.warnings.map(\.line) == [7, 10])
        #expect(result.warnings.last?.reason == "unknown line type 'f='")
        #expect(result.description.serialized() == text)
        #expect(result.description.media[0].hasAttribute(named: "goo"))
    }
}
