import SDP
import TestSupport
import Testing

/// Our own fixtures: RFC examples, Chrome- and Firefox-shaped offers and answers, an ICE-lite media server
/// answer (audio, video, data, simulcast, BUNDLE).
@Suite struct FixtureTests {
    @Test(arguments: Fixture.names)
    func fixtureRoundTripsByteForByte(name: String) throws {
        let text = try SDPFiles.fixtureText(name)
        #expect(try SessionDescription(parsing: text).serialized() == text)
    }

    @Test func rfc8866ExampleHasThreeSectionsWithSessionAndMediaConnections() throws {
        let sdp = try SDPFiles.fixture("rfc8866-example.sdp")
        #expect(sdp.origin == Origin(username: "jdoe", sessionID: 3_724_394_400, sessionVersion: 3_724_394_405, address: "198.51.100.1"))
        #expect(sdp.sessionName == "Call to John Smith")
        #expect(sdp.media.map(\.kind) == ["audio", "audio", "video"])
        #expect(sdp.effectiveConnection(ofMediaAt: 0)?.address == "198.51.100.1")
        #expect(sdp.effectiveConnection(ofMediaAt: 2) == Connection(addrType: "IP6", address: "2001:db8::2"))
        #expect(sdp.media[0].codecs.map(\.rtpMap) == [nil])
    }

    @Test func rfc8839ExampleHasSessionLevelIceAndBandwidths() throws {
        let sdp = try SDPFiles.fixture("rfc8839-example.sdp")
        #expect(sdp.iceOptions == ["ice2"])
        #expect(sdp.effectiveIceUfrag(ofMediaAt: 0) == "8hhY")
        #expect(sdp.effectiveIcePwd(ofMediaAt: 0) == "asd88fgpdd777uzjYhagZg")
        #expect(sdp.media[0].bandwidths == [Bandwidth(type: "RS", value: 0), Bandwidth(type: "RR", value: 0)])
        #expect(sdp.media[0].candidates.map(\.type) == [.host, .srflx])
        #expect(sdp.sessionName == " ")
    }

    @Test func chromeOfferAudioVideoDataWithSimulcastAndBundle() throws {
        let sdp = try SDPFiles.fixture("chrome-offer.sdp")
        #expect(sdp.lineEnding == .crlf)
        #expect(sdp.bundleGroups == [MediaGroup(semantics: "BUNDLE", mids: ["0", "1", "2"])])
        #expect(sdp.media.map(\.mid) == ["0", "1", "2"])
        #expect(sdp.media.map(\.direction) == [.sendrecv, .sendonly, nil])
        let audio = sdp.media[0], video = sdp.media[1], data = sdp.media[2]
        #expect(audio.candidates.map(\.addressKind) == [.ipv4, .mdns, .ipv4, .ipv4])
        #expect(audio.candidates[3].tcpType == .active)
        #expect(video.rids.map(\.id) == ["q", "h", "f"])
        #expect(video.simulcast?.send.map { $0.map(\.rid) } == [["q"], ["h"], ["f"]])
        #expect(video.retransmissionPayloadTypes(for: 96) == [97])
        #expect(video.payloadTypes.count == 20)
        #expect(data.sctpPort == 5000 && data.maxMessageSize == 262_144)
        #expect(sdp.media.allSatisfy { $0.fingerprints.first?.hashFunction == "sha-256" })
    }

    @Test func chromeAnswerRecvonlyAudioInactiveVideoActiveSetup() throws {
        let sdp = try SDPFiles.fixture("chrome-answer.sdp")
        #expect(sdp.media.map(\.direction) == [.recvonly, .inactive])
        #expect(sdp.media.map(\.setup) == [.active, .active])
        #expect(sdp.media[1].payloadTypes == [120, 124])
    }

    @Test func firefoxOfferSessionLevelFingerprintsAndTrickledCandidateKinds() throws {
        let sdp = try SDPFiles.fixture("firefox-offer.sdp")
        #expect(sdp.lineEnding == .lf)
        #expect(sdp.fingerprints.map(\.hashFunction) == ["sha-256", "sha-512"])
        #expect(sdp.media[0].fingerprints.isEmpty)
        #expect(sdp.effectiveFingerprints(ofMediaAt: 1).count == 2)
        #expect(sdp.origin?.username == "mozilla...THIS_IS_SDPARTA-99.0")
        #expect(sdp.direction == .sendrecv)
        let kinds = sdp.media[0].candidates.map(\.type)
        #expect(kinds == [.host, .host, .host, .srflx, .relay])
        #expect(sdp.media[0].candidates.map(\.addressKind) == [.ipv6, .mdns, .ipv4, .ipv4, .ipv4])
        #expect(sdp.media[0].endOfCandidates && !sdp.media[1].endOfCandidates)
        #expect(sdp.media[1].ssrcGroups.first?.ssrcs == [2_087_913_464, 3_379_151_024])
        #expect(sdp.media[0].extmaps[1].direction == .recvonly)
    }

    @Test func firefoxAnswerReceivesSimulcastAndAnswersDataChannel() throws {
        let sdp = try SDPFiles.fixture("firefox-answer.sdp")
        let video = sdp.media[1]
        #expect(video.simulcast == Simulcast(receive: [[.init(rid: "q")], [.init(rid: "h")], [.init(rid: "f")]]))
        #expect(video.rids.allSatisfy { $0.direction == .recv })
        #expect(sdp.media.map(\.setup) == [.active, .active, .active])
        #expect(sdp.media[2].maxMessageSize == 1_073_741_823)
        #expect(sdp.media[0].rtpMap(for: 9)?.channels == 1)
    }

    @Test func kurentoAnswerIsIceLiteWithInlineCandidates() throws {
        let sdp = try SDPFiles.fixture("kurento-ice-lite-answer.sdp")
        #expect(sdp.iceLite)
        #expect(sdp.media.map(\.endOfCandidates) == [true, true])
        #expect(sdp.media[0].candidates.compactMap(\.tcpType) == [.active, .passive])
        #expect(sdp.media[1].bandwidths == [Bandwidth(type: "AS", value: 500)])
        #expect(sdp.media[1].direction == .recvonly)
    }
}
