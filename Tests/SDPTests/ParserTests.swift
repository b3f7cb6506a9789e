import SDP
import Testing

/// Line handling, strict rejections with line numbers, and the lenient mode (RFC 8866 §5,
/// docs/sdp-jsep.md#sdp-grammar).
@Suite struct ParserTests {
    static let minimal = "v=0\no=- 1 1 IN IP4 0.0.0.0\ns=-\nt=0 0\nm=audio 9 RTP/AVP 0\na=sendrecv\n"

    @Test func lfInputSerializesWithLF() throws {
        let sdp = try SessionDescription(parsing: Self.minimal)
        #expect(sdp.lineEnding == .lf)
        #expect(sdp.serialized() == Self.minimal)
    }

    @Test func crlfInputSerializesWithCRLF() throws {
        let text = Self.minimal.replacing("\n", with: "\r\n")
        let sdp = try SessionDescription(parsing: text)
        #expect(sdp.lineEnding == .crlf)
        #expect(sdp.serialized() == text)
    }

    @Test func missingFinalNewlineIsReproduced() throws {
        let text = String(Self.minimal.dropLast())
        #expect(try SessionDescription(parsing: text).serialized() == text)
    }

    @Test func normalizationWritesCRLFEverywhere() throws {
        let text = String(Self.minimal.dropLast())
        let normalized = try SessionDescription(parsing: text).serialized(normalizingToCRLF: true)
        #expect(normalized == Self.minimal.replacing("\n", with: "\r\n"))
    }

    @Test func mixedEndingsAndBlankLinesParseToTheSameModel() throws {
        let messy = "v=0\r\no=- 1 1 IN IP4 0.0.0.0\ns=-\r\n\r\nt=0 0\nm=audio 9 RTP/AVP 0\r\na=sendrecv\n\n"
        let clean = try SessionDescription(parsing: Self.minimal)
        let parsed = try SessionDescription(parsing: messy)
        #expect(parsed.lines == clean.lines && parsed.media == clean.media)
    }

    @Test func valueWhitespaceIsKeptVerbatim() throws {
        let text = "v=0\no=- 1 1 IN IP4 0.0.0.0\ns= \nt=0 0\na=msid-semantic: WMS \n"
        let sdp = try SessionDescription(parsing: text)
        #expect(sdp.sessionName == " ")
        #expect(sdp.attributeValue(named: "msid-semantic") == " WMS ")
        #expect(sdp.serialized() == text)
    }

    @Test func unknownAttributesArePreservedInOrder() throws {
        let text = Self.minimal + "a=x-google-flag:conference\na=framerate:29.97\na=goo\n"
        let sdp = try SessionDescription(parsing: text)
        #expect(sdp.media[0].attributes.map(\.name) == ["sendrecv", "x-google-flag", "framerate", "goo"])
        #expect(sdp.serialized() == text)
    }

    /// Strict rejections: (text, line, phrase in the reason).
    static let rejections: [(String, Int, String)] = [
        ("", 1, "empty description"),
        ("o=- 1 1 IN IP4 0.0.0.0\nv=0\ns=-\n", 1, "must start with 'v=0'"),
        ("v=1\no=- 1 1 IN IP4 0.0.0.0\ns=-\n", 1, "unsupported version"),
        ("v=0\no=- 1 IN IP4 0.0.0.0\ns=-\n", 2, "malformed o= line"),
        ("v=0\no=- x 1 IN IP4 0.0.0.0\ns=-\n", 2, "malformed o= line"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\ns=-\nc=IN IP7 1.2.3.4\n", 4, "unknown address type 'IP7'"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\ns=-\nb=AS:fast\n", 4, "malformed b= line"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\ns=-\nt=0\n", 4, "malformed t= line"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\ns=-\nf=invalid:yes\n", 4, "unknown line type 'f='"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\ns=-\ngarbage\n", 4, "expected '<type>=<value>'"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\ns=-\nm=audio\n", 4, "malformed m= line"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\ns=-\nm=audio 70000 RTP/AVP 0\n", 4, "malformed m= line"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\ns=-\nm=audio 9 RTP/AVP 0\nt=0 0\n", 5, "only allowed at session level"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\ns=-\ns=again\n", 4, "duplicate 's='"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\nt=0 0\n", 3, "missing 's='"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\ns=-\na=rtcp:x\n", 4, "malformed a=rtcp"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\ns=-\nm=audio 9 RTP/AVP 0\na=candidate:1 1 udp 1 1.2.3.4 5 typ srflx\n", 5,
         "invalid candidate: srflx candidate without raddr and rport"),
        ("v=0\no=- 1 1 IN IP4 0.0.0.0\ns=-\na=na me\n", 4, "is not a token"),
    ]

    @Test(arguments: rejections)
    func strictParsingRejectsWithLineAndReason(text: String, line: Int, reason: String) {
        #expect {
            try SessionDescription(parsing: text)
        } throws: { error in
            guard let error = error as? SDPParseError else { return false }
            return error.line == line && error.reason.contains(reason)
        }
    }

    @Test func errorTextNamesTheLine() {
        #expect(SDPParseError(line: 7, reason: "bad").description == "line 7: bad")
    }

    @Test func lenientModeKeepsUnknownAndMalformedLinesAndReportsThem() throws {
        let text = "v=0\no=- 1 1 IN IP4 0.0.0.0\ns=-\nf=invalid:yes\nb=AS:fast\nm=audio 9 RTP/AVP 0\nt=0 0\na=candidate:bogus\n"
        let result = try SDPParser.parse(text, mode: .lenient)
        #expect(result.warnings.map(\.line) == [4, 5, 7, 8])
        #expect(result.description.serialized() == text)
        #expect(result.description.media[0].candidates.isEmpty)
        #expect(result.description.bandwidths.isEmpty)
    }

    @Test func lenientModeDropsLinesWithoutEqualsSign() throws {
        let result = try SDPParser.parse("v=0\no=- 1 1 IN IP4 0.0.0.0\nnonsense\ns=-\n", mode: .lenient)
        #expect(result.warnings == [SDPParseError(line: 3, reason: "expected '<type>=<value>'")])
        #expect(result.description.lines.map(\.type) == ["v", "o", "s"])
    }

    @Test func lenientModeStillRejectsMalformedMediaLine() {
        #expect(throws: SDPParseError(line: 4, reason: "malformed m= line, expected '<media> <port> <proto> <fmt> …'")) {
            try SDPParser.parse("v=0\no=- 1 1 IN IP4 0.0.0.0\ns=-\nm=audio x\n", mode: .lenient)
        }
    }

    @Test func strictModeReportsNoWarnings() throws {
        #expect(try SDPParser.parse(Self.minimal).warnings.isEmpty)
    }

    @Test func mediaLineWithPortCountAndTokenFormats() throws {
        let sdp = try SessionDescription(parsing: "v=0\no=- 1 1 IN IP4 0.0.0.0\ns=-\nm=video 49170/2 RTP/AVP 31\nm=application 3238 UDP/BFCP *\n")
        #expect(sdp.media[0].port == 49170 && sdp.media[0].portCount == 2)
        #expect(sdp.media[1].formats == ["*"])
        #expect(sdp.media[1].payloadTypes.isEmpty)
    }
}
