import PeerManager
import SDP
import Testing

/// Trickle ICE through a connection: validation, queueing, flushing, end-of-candidates, local candidates
/// (docs/sdp-jsep.md#trickle).
@Suite struct CandidateQueueTests {
    static let host = "candidate:1 1 udp 2113929471 203.0.113.100 10100 typ host"
    static let host2 = "candidate:2 1 udp 2113929470 203.0.113.100 10102 typ host"

    @Test func candidatesBeforeTheRemoteDescriptionAreQueuedThenAppliedInOrder() throws {
        var pc = PeerConnection()
        #expect(try pc.addRemoteCandidate(IceCandidate(candidate: Self.host, sdpMid: "1")) == [])
        #expect(try pc.addRemoteCandidate(IceCandidate(candidate: Self.host2, sdpMid: "1")) == [])
        #expect(pc.queuedRemoteCandidates.count == 2)
        let events = try pc.setRemoteDescription(.offer, sdp: Negotiation.offer())
        #expect(events == [.signalingStateChanged(.haveRemoteOffer), .queuedCandidatesApplied(count: 2)])
        #expect(pc.queuedRemoteCandidates.isEmpty)
        #expect(pc.remoteDescription?.description.media[1].candidates.map(\.foundation) == ["1", "2"])
    }

    @Test func queueIsBounded() throws {
        var pc = PeerConnection(configuration: .init(maxQueuedCandidates: 2))
        _ = try pc.addRemoteCandidate(IceCandidate(candidate: Self.host, sdpMLineIndex: 0))
        _ = try pc.addRemoteCandidate(IceCandidate(candidate: Self.host2, sdpMLineIndex: 0))
        #expect(throws: PeerConnectionError.candidateQueueFull(limit: 2)) {
            try pc.addRemoteCandidate(IceCandidate(candidate: Self.host, sdpMLineIndex: 1))
        }
    }

    @Test func queuedCandidatesThatFitNoSectionAreDroppedAtFlush() throws {
        var pc = PeerConnection()
        _ = try pc.addRemoteCandidate(IceCandidate(candidate: Self.host, sdpMid: "7"))
        _ = try pc.addRemoteCandidate(IceCandidate(candidate: Self.host2, sdpMid: "0"))
        let events = try pc.setRemoteDescription(.offer, sdp: Negotiation.offer())
        #expect(events.suffix(2) == [.queuedCandidatesApplied(count: 1), .queuedCandidatesDropped(count: 1)])
    }

    @Test func candidateWithoutTargetIsATypeErrorEvenBeforeTheDescription() {
        var pc = PeerConnection()
        #expect(throws: PeerConnectionError.candidate(.noTarget)) { try pc.addRemoteCandidate(IceCandidate(candidate: Self.host)) }
    }

    @Test func candidateForAnUnknownMidIsRejected() throws {
        var pc = try Negotiation.connection(in: .haveRemoteOffer)
        #expect(throws: PeerConnectionError.candidate(.noSuchSection(sdpMid: "9", sdpMLineIndex: nil))) {
            try pc.addRemoteCandidate(IceCandidate(candidate: Self.host, sdpMid: "9"))
        }
    }

    @Test func candidateOfAnOldGenerationIsRejectedAfterAnIceRestart() throws {
        var pc = try Negotiation.connection(in: .haveLocalOffer)
        _ = try pc.setRemoteDescription(.answer, sdp: Negotiation.answer(ufrag: "gen1"))
        _ = try pc.addRemoteCandidate(IceCandidate(candidate: Self.host + " ufrag gen1", sdpMid: "0"))
        // The peer restarts ICE: a new offer with new credentials.
        _ = try pc.setRemoteDescription(.offer, sdp: Negotiation.offer(ufrag: "gen2"))
        #expect(throws: PeerConnectionError.candidate(.unknownUsernameFragment("gen1"))) {
            try pc.addRemoteCandidate(IceCandidate(candidate: Self.host2 + " ufrag gen1", sdpMid: "0"))
        }
        _ = try pc.addRemoteCandidate(IceCandidate(candidate: Self.host2, sdpMid: "0", usernameFragment: "gen2"))
        #expect(pc.pendingRemoteDescription?.description.media[0].candidates.map(\.foundation) == ["2"])
    }

    @Test func endOfCandidatesForOneSectionAndForAll() throws {
        var pc = try Negotiation.connection(in: .haveRemoteOffer)
        _ = try pc.addRemoteCandidate(.endOfCandidates(sdpMid: "0"))
        #expect(pc.remoteDescription?.description.media.map(\.endOfCandidates) == [true, false])
        _ = try pc.addRemoteCandidate(.endOfCandidates())
        #expect(pc.remoteDescription?.description.media.map(\.endOfCandidates) == [true, true])
    }

    @Test func rollbackDropsQueuedCandidatesOfAGoneGeneration() throws {
        var pc = try Negotiation.connection(in: .haveLocalOffer)
        _ = try pc.addRemoteCandidate(IceCandidate(candidate: Self.host, sdpMid: "0", usernameFragment: "gone"))
        _ = try pc.addRemoteCandidate(IceCandidate(candidate: Self.host2, sdpMid: "0"))
        let events = try pc.setLocalDescription(.rollback)
        #expect(events == [.signalingStateChanged(.stable), .queuedCandidatesDropped(count: 1)])
        #expect(pc.queuedRemoteCandidates.map(\.candidate) == [Self.host2])
    }

    @Test func localCandidatesBecomeSignalableEventsWithTheirTarget() throws {
        var pc = try Negotiation.connection(in: .haveLocalOffer)
        let events = try pc.addLocalCandidate(IceCandidate(candidate: Self.host, sdpMLineIndex: 1))
        #expect(events == [.localCandidate(IceCandidate(candidate: Self.host, sdpMid: "1", sdpMLineIndex: 1))])
        #expect(pc.localDescription?.description.media[1].candidates.count == 1)
    }

    @Test func earlyLocalCandidatesSurfaceAfterTheLocalDescription() throws {
        var pc = PeerConnection()
        #expect(try pc.addLocalCandidate(IceCandidate(candidate: Self.host, sdpMid: "0")) == [])
        _ = try pc.createOffer(Negotiation.offerModel)
        let events = try pc.setLocalDescription(.offer)
        #expect(events == [
            .signalingStateChanged(.haveLocalOffer),
            .localCandidate(IceCandidate(candidate: Self.host, sdpMid: "0", sdpMLineIndex: 0)),
        ])
        #expect(pc.earlyLocalCandidates.isEmpty)
    }

    @Test func localEndOfCandidatesIsAddedAndSignaled() throws {
        var pc = try Negotiation.connection(in: .haveLocalOffer)
        let events = try pc.addLocalCandidate(.endOfCandidates(sdpMid: "1"))
        #expect(events == [.localCandidate(IceCandidate(candidate: "", sdpMid: "1", sdpMLineIndex: 1))])
        #expect(pc.localDescription?.description.media[1].endOfCandidates == true)
    }
}
