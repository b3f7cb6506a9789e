import Foundation
import PeerManager
import SDP
import TestSupport
import Testing

/// RFC 5888 §4: a mid names one m-line. An offer that repeats one is refused by the answer builders (PeerManager,
/// `sdp-tool answer`), and `AnswerChecker` (`sdp-tool check-answer`) flags a pair that repeats one (issue 31, item 21).
@Suite struct DuplicateMidTests {
    /// A small offer whose audio and video sections both say `a=mid:0`.
    static let offer = """
        v=0
        o=- 1 1 IN IP4 127.0.0.1
        s=-
        t=0 0
        a=group:BUNDLE 0
        a=ice-ufrag:abcd
        a=ice-pwd:abcdefghijklmnopqrstuvwx
        a=fingerprint:sha-256 \(Array(repeating: "AB", count: 32).joined(separator: ":"))
        a=setup:actpass
        m=audio 9 UDP/TLS/RTP/SAVPF 111
        c=IN IP4 0.0.0.0
        a=mid:0
        a=sendrecv
        a=rtcp-mux
        a=rtpmap:111 opus/48000/2
        m=video 9 UDP/TLS/RTP/SAVPF 96
        c=IN IP4 0.0.0.0
        a=mid:0
        a=sendrecv
        a=rtcp-mux
        a=rtpmap:96 VP8/90000

        """

    @Test func theDescriptionNamesTheRepeatedMidAndItsLines() throws {
        let description = try SessionDescription(parsing: Self.offer)
        #expect(description.duplicateMids == [SessionDescription.DuplicateMid(mid: "0", mLines: [0, 1])])
        #expect(description.duplicateMids.first?.description == "mid '0' is used by m-lines 0 and 1")
        #expect(try SDPFiles.fixture("chrome-offer.sdp").duplicateMids.isEmpty)
    }

    @Test func peerManagerRefusesToAnswerAnOfferThatRepeatsAMid() async throws {
        let server = PeerManager()
        await #expect {
            _ = try await server.processOffer(Self.offer, for: "cam")
        } throws: { error in
            "\(error)".contains("mid '0' is used by m-lines 0 and 1")
        }
    }

    /// The offer, and the answer a builder that copies its mids would give: every mid echoed, so that only
    /// unique-mid is broken.
    static func pairRepeatingAMid() throws -> (offer: SessionDescription, answer: SessionDescription) {
        let offer = try SessionDescription(parsing: Self.offer)
        var unique = offer
        unique.media[1].mid = "1"
        var answer = AnswerBuilderTests.answer(unique)
        answer.media[1].mid = "0"
        answer.groups = [MediaGroup(semantics: "BUNDLE", mids: ["0"])]
        return (offer, try SessionDescription(parsing: answer.serialized()))
    }

    @Test func theCheckerFlagsAPairThatRepeatsAMidOnce() throws {
        let (offer, answer) = try Self.pairRepeatingAMid()
        let violations = AnswerChecker.violations(offer: offer, answer: answer)
        #expect(violations.map(\.rule) == [.uniqueMid], "\(violations)")
        #expect(violations.first?.description == "unique-mid: the offer's mid '0' is used by m-lines 0 and 1")
    }

    @Test func sdpToolAnswerRefusesAnOfferThatRepeatsAMid() throws {
        let path = try SDPToolAnswerTests.write(try SessionDescription(parsing: Self.offer), "duplicate-mid-offer")
        let result = try SDPToolAnswerTests.run(["answer", path, "--seed", "1"])
        #expect(result.status == 1)
        #expect(result.output == "\(path): mid '0' is used by m-lines 0 and 1 (RFC 5888: a mid names one m-line)\n")
    }

    @Test func sdpToolCheckAnswerRefusesAPairThatRepeatsAMid() throws {
        let (offer, answer) = try Self.pairRepeatingAMid()
        let result = try SDPToolAnswerTests.run(
            ["check-answer", try SDPToolAnswerTests.write(offer, "offer"), try SDPToolAnswerTests.write(answer, "answer")])
        #expect(result.status == 1)
        #expect(result.output == "unique-mid: the offer's mid '0' is used by m-lines 0 and 1\n")
    }
}
