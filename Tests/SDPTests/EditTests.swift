import SDP
import TestSupport
import Testing

/// Editing the model, serializing, and parsing back (the result must equal the edited model).
@Suite struct EditTests {
    func roundTrip(_ sdp: SessionDescription) throws -> SessionDescription {
        try SessionDescription(parsing: sdp.serialized())
    }

    @Test func changingDirectionReplacesTheAttributeInPlace() throws {
        var sdp = try SDPFiles.fixture("chrome-offer.sdp")
        let position = sdp.media[1].lines.firstIndex { $0.value == "sendonly" }
        sdp.media[1].direction = .recvonly
        #expect(sdp.media[1].lines.firstIndex { $0.value == "recvonly" } == position)
        #expect(!sdp.serialized().contains("a=sendonly"))
        let reparsed = try roundTrip(sdp)
        #expect(reparsed == sdp)
        #expect(reparsed.media[1].direction == .recvonly)
    }

    @Test func addingDirectionWhereNoneWasAppendsIt() throws {
        var sdp = try SDPFiles.fixture("chrome-offer.sdp")
        sdp.media[2].direction = .inactive
        #expect(sdp.media[2].lines.last?.value == "inactive")
        #expect(try roundTrip(sdp) == sdp)
    }

    @Test func droppingACodecRemovesItsLinesAndItsRTX() throws {
        var sdp = try SDPFiles.fixture("chrome-offer.sdp")
        sdp.media[1].removeCodec(payloadType: 96)
        let video = sdp.media[1]
        #expect(!video.payloadTypes.contains(96) && !video.payloadTypes.contains(97))
        #expect(video.rtpMap(for: 96) == nil && video.rtpMap(for: 97) == nil)
        #expect(video.rtcpFeedback(for: 96).isEmpty && video.formatParameters(for: 97) == nil)
        #expect(video.payloadTypes.first == 102)
        #expect(video.rtpMap(for: 102)?.encodingName == "H264")
        let reparsed = try roundTrip(sdp)
        #expect(reparsed == sdp)
    }

    @Test func addingACandidateLandsAfterTheLastCandidate() throws {
        var sdp = try SDPFiles.fixture("firefox-offer.sdp")
        let candidate = try CandidateAttribute(parsing: "candidate:5 1 UDP 8265471 203.0.113.9 3478 typ relay raddr 198.51.100.40 rport 62435")
        sdp.media[0].addCandidate(candidate)
        let lines = sdp.media[0].lines
        let index = try #require(lines.firstIndex { $0.value == "candidate:" + candidate.attributeValue })
        #expect(lines[index + 1].value == "end-of-candidates")
        let reparsed = try roundTrip(sdp)
        #expect(reparsed == sdp)
        #expect(reparsed.media[0].candidates.last == candidate)
    }

    @Test func addingACandidateToASectionWithoutAnyAppendsIt() throws {
        var sdp = try SDPFiles.fixture("chrome-offer.sdp")
        try sdp.apply(IceCandidate(candidate: "candidate:9 1 udp 2122260223 192.168.1.20 50000 typ host", sdpMid: "2"))
        try sdp.apply(.endOfCandidates(sdpMid: "2"))
        #expect(sdp.media[2].lines.suffix(2).map(\.value) == [
            "candidate:9 1 udp 2122260223 192.168.1.20 50000 typ host", "end-of-candidates",
        ])
        #expect(try roundTrip(sdp) == sdp)
    }

    @Test func transportEditsRoundTrip() throws {
        var sdp = try SDPFiles.fixture("chrome-offer.sdp")
        for index in sdp.media.indices {
            sdp.media[index].iceUfrag = "N3wU"
            sdp.media[index].icePwd = "n3wpasswordn3wpassword"
            sdp.media[index].setup = .active
            sdp.media[index].fingerprints = [Fingerprint(hashFunction: "sha-384", value: "AB:CD")]
            sdp.media[index].removeCandidates()
        }
        sdp.media[0].bandwidths = [Bandwidth(type: "TIAS", value: 64000)]
        sdp.groups = [MediaGroup(semantics: "BUNDLE", mids: ["1", "0", "2"])]
        sdp.origin?.sessionVersion += 1
        let reparsed = try roundTrip(sdp)
        #expect(reparsed == sdp)
        #expect(reparsed.media.allSatisfy { $0.iceUfrag == "N3wU" && $0.setup == .active && $0.candidates.isEmpty })
        #expect(reparsed.media[0].lines.first?.description == "c=IN IP4 198.51.100.23")
        #expect(reparsed.media[0].lines[1].description == "b=TIAS:64000")
        #expect(reparsed.origin?.sessionVersion == 3)
    }

    @Test func streamAndSimulcastEditsRoundTrip() throws {
        var sdp = try SDPFiles.fixture("chrome-offer.sdp")
        sdp.media[1].rids = sdp.media[1].rids.map { RTPStreamID(id: $0.id, direction: $0.direction.reversed) }
        sdp.media[1].simulcast = Simulcast(receive: [[.init(rid: "q")], [.init(rid: "h", paused: true)]])
        sdp.media[1].msids = [MediaStreamID(streamID: "-", trackID: "t1")]
        sdp.media[1].ssrcGroups = [SSRCGroup(semantics: "FID", ssrcs: [1, 2])]
        sdp.media[1].extmaps = [ExtMap(id: 4, uri: "urn:ietf:params:rtp-hdrext:sdes:mid")]
        sdp.media[2].sctpPort = 5001
        sdp.media[2].maxMessageSize = nil
        sdp.media[0].mid = "audio"
        let reparsed = try roundTrip(sdp)
        #expect(reparsed == sdp)
        #expect(reparsed.media[1].simulcast?.attributeValue == "recv q;~h")
        #expect(reparsed.media[1].rids.allSatisfy { $0.direction == .recv })
        #expect(reparsed.media[2].maxMessageSize == nil && reparsed.media[2].sctpPort == 5001)
        #expect(reparsed.mediaIndex(forMid: "audio") == 0)
    }

    @Test func descriptionBuiltFromScratchSerializesInRFCForm() throws {
        var sdp = SessionDescription(origin: Origin(sessionID: 42, sessionVersion: 1))
        sdp.iceLite = true
        sdp.groups = [MediaGroup(semantics: "BUNDLE", mids: ["0"])]
        var audio = MediaDescription(kind: "audio", port: 9, proto: "UDP/TLS/RTP/SAVPF", formats: [])
        audio.connection = Connection(address: "0.0.0.0")
        audio.mid = "0"
        audio.direction = .recvonly
        audio.addCodec(RTPMap(payloadType: 111, encodingName: "opus", clockRate: 48000, channels: 2),
                       parameters: "minptime=10", feedback: [RTCPFeedback(payloadType: 111, type: "transport-cc")])
        audio.rtcpMux = true
        sdp.media.append(audio)
        let expected = [
            "v=0", "o=- 42 1 IN IP4 0.0.0.0", "s=-", "t=0 0", "a=ice-lite", "a=group:BUNDLE 0",
            "m=audio 9 UDP/TLS/RTP/SAVPF 111", "c=IN IP4 0.0.0.0", "a=mid:0", "a=recvonly",
            "a=rtpmap:111 opus/48000/2", "a=fmtp:111 minptime=10", "a=rtcp-fb:111 transport-cc", "a=rtcp-mux",
        ].map { $0 + "\r\n" }.joined()
        #expect(sdp.serialized() == expected)
        #expect(try roundTrip(sdp) == sdp)
    }
}
