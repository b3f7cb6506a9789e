import SignalingSupport
import PeerManager
import SDP
import TestSupport
import Testing

@Suite struct AnswerBuilderTests {
    static func answer(_ offer: SessionDescription, policy: AnswerPolicy = AnswerPolicy()) -> SessionDescription {
        var generator = SeededRandomNumberGenerator(seed: 11)
        return AnswerBuilder.answer(
            to: offer, policy: policy, credentials: .random(using: &generator), fingerprint: .randomSHA256(using: &generator),
            sessionID: generator.next())
    }

    static let browserOffers = ["chrome-offer.sdp", "firefox-offer.sdp", "rfc8866-example.sdp", "rfc8839-example.sdp"]

    @Test(.enabled(if: SDPFiles.corpusShouldRun, "sdp-transform corpus not found at ../shared/fixtures/sdp-transform; skipped"))
    func answersToEveryCorpusFileSatisfyEveryRule() throws {
        for (name, offer) in try SDPFiles.corpusOffers() {
            let answer = try SessionDescription(parsing: Self.answer(offer).serialized())
            #expect(AnswerChecker.violations(offer: offer, answer: answer) == [], "\(name)")
        }
    }

    @Test(arguments: browserOffers)
    func answersToBrowserShapedOffersSatisfyEveryRule(name: String) throws {
        let offer = try SDPFiles.fixture(name)
        let answer = try SessionDescription(parsing: Self.answer(offer).serialized())
        #expect(AnswerChecker.violations(offer: offer, answer: answer) == [])
    }

    @Test func answerMirrorsTheOfferSectionsAndEchoesMids() throws {
        let offer = try SDPFiles.fixture("chrome-offer.sdp")
        let answer = Self.answer(offer)
        #expect(answer.media.map(\.kind) == offer.media.map(\.kind))
        #expect(answer.media.map(\.mid) == offer.media.map(\.mid))
        #expect(answer.lines.first { $0.type == "t" }?.value == "0 0")
    }

    @Test func codecIntersectionKeepsTheOfferersPayloadTypesAndRTX() throws {
        let offer = try SDPFiles.fixture("chrome-offer.sdp")
        let answer = Self.answer(offer)
        #expect(answer.media[0].payloadTypes == [111, 0, 8, 126])  // G722, CN and telephone-event/48000 unsupported
        #expect(answer.media[1].payloadTypes == [96, 97, 102, 103, 104, 105, 106, 107, 108, 109, 127, 125, 45, 46])
        #expect(answer.media[1].formatParameters(for: 97)?.value(for: "apt") == "96")
        #expect(answer.media[1].rtcpFeedback(for: 96).count == 5)
    }

    @Test func directionIsMappedPerRFC3264() throws {
        let offer = try SDPFiles.fixture("chrome-offer.sdp")
        #expect(Self.answer(offer).media.map(\.direction) == [.sendrecv, .recvonly, nil])
        let receiveOnlyServer = AnswerPolicy(directions: ["audio": .recvonly])
        #expect(Self.answer(offer, policy: receiveOnlyServer).media[0].direction == .recvonly)
        let sendOnlyServer = AnswerPolicy(directions: ["video": .sendonly])
        #expect(Self.answer(offer, policy: sendOnlyServer).media[1].direction == .inactive)
    }

    @Test func setupAnswersTheOfferedRole() throws {
        var offer = try SDPFiles.fixture("chrome-offer.sdp")
        #expect(Self.answer(offer).media.map(\.setup) == [.active, .active, .active])
        offer.media[0].setup = .active
        offer.media[1].setup = .passive
        #expect(Self.answer(offer).media.map(\.setup) == [.passive, .active, .active])
    }

    @Test func rejectedKindGetsPortZeroKeepsItsMidAndLeavesTheBundle() throws {
        let offer = try SDPFiles.fixture("chrome-offer.sdp")
        let answer = Self.answer(offer, policy: AnswerPolicy(rejectedKinds: ["video"]))
        #expect(answer.media[1].port == 0 && answer.media[1].mid == "1")
        #expect(answer.media[1].formats == ["96"])
        #expect(answer.bundleGroups == [MediaGroup(semantics: "BUNDLE", mids: ["0", "2"])])
        #expect(AnswerChecker.violations(offer: offer, answer: answer) == [])
    }

    @Test func bundleTagIsTheFirstAcceptedOfferedMid() throws {
        let offer = try SDPFiles.fixture("chrome-offer.sdp")
        let answer = Self.answer(offer, policy: AnswerPolicy(rejectedKinds: ["audio"]))
        #expect(answer.bundleGroups.first?.mids.first == "1")
    }

    @Test func unsupportedCodecsOrProtocolsAreRejected() throws {
        let offer = try SDPFiles.fixture("chrome-offer.sdp")
        let vp9Only = AnswerPolicy(codecs: [RTPMap(payloadType: 0, encodingName: "AV2", clockRate: 90000)])
        #expect(Self.answer(offer, policy: vp9Only).media.map(\.port) == [0, 0, 9])
        let noData = AnswerPolicy(acceptsDataChannels: false)
        #expect(Self.answer(offer, policy: noData).media[2].port == 0)
    }

    @Test func transportIsOwnIceLiteWithInlineCandidatesAndEndOfCandidates() throws {
        let offer = try SDPFiles.fixture("chrome-offer.sdp")
        let host = try CandidateAttribute(parsing: "candidate:1 1 udp 2130706431 203.0.113.7 40000 typ host")
        let answer = Self.answer(offer, policy: AnswerPolicy(address: "203.0.113.7", port: 40000, candidates: [host]))
        #expect(answer.iceLite)
        #expect(answer.media.allSatisfy { $0.endOfCandidates && $0.candidates == [host] && $0.port == 40000 })
        #expect(answer.media[0].iceUfrag != offer.media[0].iceUfrag)
        #expect(answer.media.allSatisfy { $0.iceOptions.isEmpty })
        #expect(answer.media[0].fingerprints.first?.hashFunction == "sha-256")
        #expect(answer.media[0].rtcpMux)
    }

    @Test func aTricklingAnswererAnnouncesTrickleAndInlinesNothing() throws {
        let offer = try SDPFiles.fixture("chrome-offer.sdp")
        let host = try CandidateAttribute(parsing: "candidate:1 1 udp 2130706431 203.0.113.7 40000 typ host")
        let answer = Self.answer(offer, policy: AnswerPolicy(candidates: [host], trickle: true))
        #expect(!answer.iceLite && answer.iceOptions == ["trickle"])
        #expect(answer.media.allSatisfy { !$0.endOfCandidates && $0.candidates.isEmpty && $0.iceOptions.isEmpty })
        #expect(AnswerChecker.violations(offer: offer, answer: answer) == [])
    }

    @Test func offeredSimulcastIsReceivedWithReversedRids() throws {
        let offer = try SDPFiles.fixture("chrome-offer.sdp")
        let video = Self.answer(offer).media[1]
        #expect(video.rids.map(\.attributeValue) == ["q recv", "h recv", "f recv"])
        #expect(video.simulcast?.attributeValue == "recv q;h;f")
    }

    @Test func dataChannelIsAnsweredInTheOfferedForm() throws {
        let modern = Self.answer(try SDPFiles.fixture("chrome-offer.sdp")).media[2]
        #expect(modern.sctpPort == 5000 && modern.formats == ["webrtc-datachannel"])
    }

    @Test func builtAnswerCompletesANegotiation() throws {
        var pc = PeerConnection()
        let offerText = try SDPFiles.fixture("chrome-offer.sdp").serialized()
        _ = try pc.setRemoteDescription(.offer, sdp: offerText)
        _ = try pc.createAnswer(Self.answer(try SessionDescription(parsing: offerText)))
        #expect(try pc.setLocalDescription(.answer) == [.signalingStateChanged(.stable)])
    }
}
