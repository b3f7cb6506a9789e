import SDP
import TestSupport
import Testing

@Suite(.enabled(if: SDPFiles.corpusShouldRun, "sdp-transform corpus not found at ../shared/fixtures/sdp-transform; skipped"))
struct CorpusAccessorTests {
    @Test(arguments: CorpusPin.all)
    func typedAccessorsMatchPinnedValues(pin: CorpusPin) throws {
        pin.expect(matches: try SDPFiles.corpus(pin.file))
    }

    @Test func jsepExampleTransportAndStreamDetails() throws {
        let jsep = try SDPFiles.corpus("jsep.sdp")
        let audio = jsep.media[0], video = jsep.media[1]
        #expect(audio.iceOptions == ["trickle"])
        #expect(audio.setup == .actpass)
        #expect(audio.rtcpMux)
        #expect(audio.endOfCandidates && video.endOfCandidates)
        #expect(audio.msids == [MediaStreamID(streamID: "-", trackID: "f83006c5-a0ff-4e0a-9ed9-d3e6747be7d9")])
        #expect(video.msids.map(\.streamID) == ["61317484-2ed4-49d7-9eb7-1414322a7aae", "93e8b9bb-ad32-417e-9d2d-42c215f50713"])
        #expect(video.port == 0 && video.isBundleOnly && !video.isRejected)
        #expect(video.ssrcGroups == [SSRCGroup(semantics: "FID", ssrcs: [1_366_781_083, 1_366_781_084])])
        #expect(video.retransmissionPayloadTypes(for: 100) == [101])
        #expect(video.rtcpFeedback(for: 100).map(\.attributeValue) == ["100 ccm fir", "100 nack", "100 nack pli"])
        #expect(audio.extmaps.map(\.uri) == ["urn:ietf:params:rtp-hdrext:ssrc-audio-level", "urn:ietf:params:rtp-hdrext:sdes:mid"])
        #expect(audio.rtpMap(for: 96) == RTPMap(payloadType: 96, encodingName: "opus", clockRate: 48000, channels: 2))
        #expect(jsep.origin?.sessionID == 4_962_303_333_179_871_722)
    }

    @Test func normalFileExtmapDirectionWildcardFeedbackAndValuelessSSRCAttribute() throws {
        let normal = try SDPFiles.corpus("normal.sdp")
        #expect(normal.media[0].extmaps[1] == ExtMap(id: 2, direction: .recvonly, uri: "URI-gps-string"))
        #expect(normal.media[1].rtcpFeedback.first == RTCPFeedback(payloadType: nil, type: "nack"))
        #expect(normal.media[1].ssrcAttributes[1] == SSRCAttribute(ssrc: 1_399_694_169, name: "baz"))
        #expect(normal.media[1].formatParameters(for: 98)?.pairs.map(\.key) == ["minptime", "useinbandfec"])
        let srflx = normal.media[0].candidates[2]
        #expect(srflx.type == .srflx && srflx.networkID == 3 && srflx.networkCost == 10)
        #expect(normal.setup == .actpass)
    }

    @Test func hackyFileLegacyDataChannelAndTCPCandidates() throws {
        let hacky = try SDPFiles.corpus("hacky.sdp")
        #expect(hacky.media[0].candidates.compactMap(\.tcpType) == [.active, .active, .passive, .so, .active, .passive, .so])
        #expect(hacky.media[2].formats == ["5000"])
        #expect(hacky.media[2].bandwidths == [Bandwidth(type: "AS", value: 30)])
        #expect(hacky.media[2].setup == .active)
        #expect(hacky.origin?.sessionID == 3_710_604_898_417_546_434)
    }

    @Test func dataChannelSectionCarriesSCTPPortAndMessageSize() throws {
        let data = try SDPFiles.corpus("sctp-dtls-26.sdp").media[0]
        #expect(data.sctpPort == 5000)
        #expect(data.maxMessageSize == 10000)
        #expect(data.formats == ["webrtc-datachannel"])
    }

    @Test func simulcastInBothSyntaxesAndRids() throws {
        let video = try SDPFiles.corpus("simulcast.sdp").media[1]
        #expect(video.rids.map(\.id) == ["1", "2", "3", "4", "c"])
        #expect(video.rids[0].payloadTypes == [97])
        #expect(video.rids[0].restrictions.map(\.name) == ["pt", "max-width", "max-height", "max-fps"])
        #expect(video.rids[4].direction == .recv)
        let expected = Simulcast(
            send: [[.init(rid: "1"), .init(rid: "4", paused: true)], [.init(rid: "2")], [.init(rid: "3")]],
            receive: [[.init(rid: "c")]])
        #expect(video.simulcasts == [expected, expected])
        #expect(expected.attributeValue == "send 1,~4;2;3 recv c")
    }

    @Test func ssrcFileGroupsAndSources() throws {
        let video = try SDPFiles.corpus("ssrc.sdp").media[1]
        #expect(video.ssrcs == [3_004_364_195, 1_126_032_854, 1_080_772_241])
        #expect(video.ssrcGroups.map(\.semantics) == ["FID", "FEC-FR"])
        #expect(video.extmaps.count == 5)
        #expect(video.codecs.first { $0.payloadType == 100 }?.parameters
            == "level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f")
    }
}
