import PeerManager
import SDP
import TestSupport
import Testing

/// Deliberately broken answers to the Chrome-shaped offer, one rule per answer; the checker must flag
/// exactly that rule.
@Suite struct AnswerCheckerTests {
    struct Breakage: Sendable, CustomTestStringConvertible {
        var rule: AnswerRule
        var offer: @Sendable (inout SessionDescription) -> Void = { _ in }
        var answer: @Sendable (inout SessionDescription) -> Void
        var testDescription: String { rule.rawValue }
    }

    static let breakages: [Breakage] = [
        Breakage(rule: .mLineCount) { a in
            a.media.removeLast()
            a.groups = [MediaGroup(semantics: "BUNDLE", mids: ["0", "1"])]
        },
        Breakage(rule: .mediaType) { $0.media[0].kind = "video" },
        Breakage(rule: .proto) { $0.media[0].proto = "RTP/AVP" },
        Breakage(rule: .timing) { a in a.lines = a.lines.map { $0.type == "t" ? SDPLine(type: "t", value: "1 2") : $0 } },
        Breakage(rule: .midEcho) { a in
            a.media[1].mid = "x"
            a.groups = [MediaGroup(semantics: "BUNDLE", mids: ["0", "2"])]
        },
        Breakage(rule: .rejectedStaysRejected, offer: { $0.media[2].port = 0 }) { _ in },
        Breakage(rule: .codecSubset) { a in
            a.media[0].addCodec(RTPMap(payloadType: 35, encodingName: "opus", clockRate: 48000, channels: 2))
        },
        Breakage(rule: .rtpmapForDynamic) { a in a.media[0].lines.removeAll { $0.value.hasPrefix("rtpmap:111 ") } },
        Breakage(rule: .direction) { $0.media[1].direction = .sendrecv },
        Breakage(rule: .groupOffered) { $0.groups.append(MediaGroup(semantics: "LS", mids: ["0", "1"])) },
        Breakage(rule: .bundleSubset) { $0.groups = [MediaGroup(semantics: "BUNDLE", mids: ["0", "1", "2", "9"])] },
        Breakage(rule: .setup) { $0.media[0].setup = .actpass },
        Breakage(rule: .iceCredentials) { $0.media[0].icePwd = "short" },
        Breakage(rule: .fingerprint) { a in
            a.fingerprints = []
            a.media[0].fingerprints = []
        },
        Breakage(rule: .rtcpMux) { $0.media[0].rtcpMux = false },
        Breakage(rule: .sctpPort) { $0.media[2].sctpPort = nil },
        Breakage(rule: .extmapSubset) { $0.media[0].extmaps.append(ExtMap(id: 9, uri: "urn:ietf:params:rtp-hdrext:sdes:mid")) },
        Breakage(rule: .unsupportedRejected) { $0.media[2].formats = ["webrtc-other"] },
        // An offer that repeats a mid, answered by a builder that copies it
        Breakage(rule: .uniqueMid, offer: { $0.media[1].mid = "0" }) { a in
            a.media[1].mid = "0"
            a.groups = [MediaGroup(semantics: "BUNDLE", mids: ["0", "2"])]
        },
    ]

    @Test func everyRuleHasABrokenAnswer() {
        // (ice-restart needs a renegotiation: AnswerCheckerRenegotiationTests)
        #expect(Set(Self.breakages.map(\.rule)) == Set(AnswerRule.allCases).subtracting([.iceRestart]))
    }

    @Test func unsupportedSectionRejectedWithPortZeroPasses() throws {
        // Given the Chrome-shaped offer, and an answer that supports no video format
        let offer = try SDPFiles.fixture("chrome-offer.sdp")
        var answer = AnswerBuilderTests.answer(offer)
        answer.media[1].formats = ["35"]
        answer.groups = [MediaGroup(semantics: "BUNDLE", mids: ["0", "2"])]

        // When it answers that section with a port, it breaks unsupported-rejected (and codec-subset)
        var unrejected = try SessionDescription(parsing: answer.serialized())
        #expect(AnswerChecker.violations(offer: offer, answer: unrejected).map(\.rule).contains(.unsupportedRejected))

        // Then rejecting it with port 0 satisfies every rule
        unrejected.media[1].port = 0
        let rejected = try SessionDescription(parsing: unrejected.serialized())
        #expect(AnswerChecker.violations(offer: offer, answer: rejected) == [])
    }

    @Test(arguments: breakages)
    func brokenAnswerIsFlaggedForItsRuleOnly(_ breakage: Breakage) throws {
        let original = try SDPFiles.fixture("chrome-offer.sdp")
        var answer = AnswerBuilderTests.answer(original)
        #expect(AnswerChecker.violations(offer: original, answer: answer) == [])
        var offer = original
        breakage.offer(&offer)
        breakage.answer(&answer)
        let reparsed = try SessionDescription(parsing: answer.serialized())
        #expect(AnswerChecker.violations(offer: offer, answer: reparsed).map(\.rule) == [breakage.rule])
    }

    @Test func violationTextNamesRuleAndLine() {
        let violation = AnswerViolation(rule: .setup, mLine: 2, message: "answer setup must be active or passive, is actpass")
        #expect(violation.description == "setup [m-line 2]: answer setup must be active or passive, is actpass")
    }
}
