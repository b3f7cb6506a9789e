import SDP
import Testing

/// `IceCandidate` as `RTCIceCandidateInit`, and applying it to a description (docs/sdp-jsep.md#trickle,
/// docs/sdp-jsep.md#trickle-json).
@Suite struct IceCandidateTests {
    static let offer = """
        v=0
        o=- 1 1 IN IP4 0.0.0.0
        s=-
        t=0 0
        a=group:BUNDLE 0 1
        m=audio 9 UDP/TLS/RTP/SAVPF 111
        c=IN IP4 0.0.0.0
        a=mid:0
        a=ice-ufrag:aaaa
        a=ice-pwd:aaaaaaaaaaaaaaaaaaaaaa
        a=rtpmap:111 opus/48000/2
        m=video 9 UDP/TLS/RTP/SAVPF 96
        c=IN IP4 0.0.0.0
        a=mid:1
        a=ice-ufrag:aaaa
        a=ice-pwd:aaaaaaaaaaaaaaaaaaaaaa
        a=rtpmap:96 VP8/90000

        """

    @Test func emptyCandidateMeansEndOfCandidates() throws {
        let marker = IceCandidate.endOfCandidates(sdpMid: "0")
        #expect(marker.isEndOfCandidates)
        #expect(try marker.parsed() == nil)
    }

    @Test func candidateCarriesItsTargetAndUsernameFragment() throws {
        let attribute = try CandidateAttribute(parsing: "candidate:1 1 udp 2113929471 203.0.113.100 10100 typ host ufrag aaaa")
        let ice = IceCandidate(attribute, sdpMid: "0", sdpMLineIndex: 0)
        #expect(ice.candidate == "candidate:1 1 udp 2113929471 203.0.113.100 10100 typ host ufrag aaaa")
        #expect(ice.usernameFragment == "aaaa")
        #expect(try ice.parsed() == attribute)
    }

    @Test func sdpMidWinsOverAnInvalidIndex() throws {
        var description = try SessionDescription(parsing: Self.offer)
        let ice = IceCandidate(candidate: "candidate:1 1 udp 100 192.0.2.1 5000 typ host", sdpMid: "1", sdpMLineIndex: 7)
        try description.apply(ice)
        #expect(description.media[1].candidates.count == 1)
        #expect(description.media[0].candidates.isEmpty)
    }

    @Test func indexIsUsedWhenNoMidIsGiven() throws {
        var description = try SessionDescription(parsing: Self.offer)
        try description.apply(IceCandidate(candidate: "candidate:1 1 udp 100 192.0.2.1 5000 typ host", sdpMLineIndex: 0))
        #expect(description.media[0].candidates.map(\.port) == [5000])
    }

    @Test func unknownMidOrIndexIsRejected() throws {
        var description = try SessionDescription(parsing: Self.offer)
        let line = "candidate:1 1 udp 100 192.0.2.1 5000 typ host"
        #expect(throws: SessionDescription.CandidateTargetError.noSuchSection(sdpMid: "9", sdpMLineIndex: nil)) {
            try description.apply(IceCandidate(candidate: line, sdpMid: "9"))
        }
        #expect(throws: SessionDescription.CandidateTargetError.noSuchSection(sdpMid: nil, sdpMLineIndex: 2)) {
            try description.apply(IceCandidate(candidate: line, sdpMLineIndex: 2))
        }
        #expect(throws: SessionDescription.CandidateTargetError.noTarget) {
            try description.apply(IceCandidate(candidate: line))
        }
    }

    @Test func foreignUsernameFragmentIsRejected() throws {
        var description = try SessionDescription(parsing: Self.offer)
        let ice = IceCandidate(candidate: "candidate:1 1 udp 100 192.0.2.1 5000 typ host", sdpMid: "0", usernameFragment: "zzzz")
        #expect(throws: SessionDescription.CandidateTargetError.unknownUsernameFragment("zzzz")) {
            try description.apply(ice)
        }
    }

    @Test func untargetedEndOfCandidatesMarksEverySection() throws {
        var description = try SessionDescription(parsing: Self.offer)
        try description.apply(.endOfCandidates())
        #expect(description.media.allSatisfy { $0.endOfCandidates })
        #expect(description.media.map { $0.lines.filter { $0.value == "end-of-candidates" }.count } == [1, 1])
    }

    @Test func descriptionListsItsCandidatesAsTrickleValues() throws {
        var description = try SessionDescription(parsing: Self.offer)
        try description.apply(IceCandidate(candidate: "candidate:1 1 udp 100 192.0.2.1 5000 typ host", sdpMid: "1"))
        #expect(description.iceCandidates == [
            IceCandidate(candidate: "candidate:1 1 udp 100 192.0.2.1 5000 typ host", sdpMid: "1", sdpMLineIndex: 1,
                         usernameFragment: "aaaa")
        ])
    }
}
