import PeerManager
import SDP
import Testing

/// Descriptions bookkeeping (docs/sdp-jsep.md#descriptions), errors, rollback and glare.
@Suite struct PeerConnectionTests {
    @Test func localOfferThenRemoteAnswerMovesPendingToCurrent() throws {
        var pc = PeerConnection()
        let offerText = try pc.createOffer(Negotiation.offerModel)
        #expect(try pc.setLocalDescription(.offer) == [.signalingStateChanged(.haveLocalOffer)])
        #expect(pc.pendingLocalDescription?.sdp == offerText)
        #expect(pc.iceRole == .controlling)
        #expect(try pc.setRemoteDescription(.answer, sdp: Negotiation.answer()) == [.signalingStateChanged(.stable)])
        #expect(pc.pendingLocalDescription == nil && pc.pendingRemoteDescription == nil)
        #expect(pc.currentLocalDescription?.sdp == offerText)
        #expect(pc.currentRemoteDescription?.type == .answer)
        #expect(pc.lastCreatedOffer == nil)
    }

    @Test func remoteOfferThenLocalPranswerThenAnswer() throws {
        var pc = PeerConnection()
        _ = try pc.setRemoteDescription(.offer, sdp: Negotiation.offer())
        #expect(pc.iceRole == .controlled)
        _ = try pc.createAnswer(Negotiation.answerModel)
        _ = try pc.setLocalDescription(.pranswer)
        #expect(pc.pendingLocalDescription?.type == .pranswer)
        #expect(pc.pendingRemoteDescription?.type == .offer)
        _ = try pc.setLocalDescription(.answer)
        #expect(pc.currentRemoteDescription?.type == .offer)
        #expect(pc.currentLocalDescription?.type == .answer)
        #expect(pc.localDescription == pc.currentLocalDescription)
    }

    @Test func iceLiteOffererMakesUsControlling() throws {
        var pc = PeerConnection()
        _ = try pc.setRemoteDescription(.offer, sdp: Negotiation.offer(lite: true))
        #expect(pc.iceRole == .controlling)
    }

    @Test func reapplyingTheSameOfferFiresNoStateChange() throws {
        var pc = try Negotiation.connection(in: .haveLocalOffer)
        #expect(try pc.setLocalDescription(.offer) == [])
    }

    @Test func modifiedLocalOfferIsAnInvalidModification() throws {
        var pc = PeerConnection()
        _ = try pc.createOffer(Negotiation.offerModel)
        #expect(throws: PeerConnectionError.invalidModification("the SDP differs from the last created offer")) {
            try pc.setLocalDescription(.offer, sdp: Negotiation.offer(ufrag: "othr"))
        }
        #expect(pc.signalingState == .stable)
    }

    @Test func localOfferWithoutCreatedOfferIsAnInvalidModification() {
        var pc = PeerConnection()
        #expect(throws: PeerConnectionError.invalidModification("no offer was created")) { try pc.setLocalDescription(.offer) }
    }

    @Test func syntaxErrorCarriesTheLineNumber() {
        var pc = PeerConnection()
        #expect(throws: PeerConnectionError.syntax(SDPParseError(line: 3, reason: "unknown line type 'f='"))) {
            try pc.setRemoteDescription(.offer, sdp: "v=0\no=- 1 1 IN IP4 0.0.0.0\nf=x\ns=-\n")
        }
        #expect(pc.signalingState == .stable && pc.remoteDescription == nil)
    }

    @Test func answerWithADifferentNumberOfSectionsIsInvalidAccess() throws {
        var pc = try Negotiation.connection(in: .haveLocalOffer)
        let answer = Negotiation.answer()
        let oneSection = String(answer[..<answer.firstRange(of: "m=video")!.lowerBound])
        #expect(throws: PeerConnectionError.invalidAccess("the answer has 1 m-lines, the offer 2")) {
            try pc.setRemoteDescription(.answer, sdp: oneSection)
        }
        #expect(pc.signalingState == .haveLocalOffer)
    }

    @Test func remoteOfferWithoutIceCredentialsIsInvalidAccess() {
        var pc = PeerConnection()
        let noUfrag = Negotiation.offer().replacing("a=ice-ufrag:offr\n", with: "")
        #expect(throws: PeerConnectionError.invalidAccess("m-line 0 has no ice-ufrag/ice-pwd")) {
            try pc.setRemoteDescription(.offer, sdp: noUfrag)
        }
    }

    @Test func rollbackDiscardsThePendingOfferAndKeepsTheCurrentOnes() throws {
        var pc = try Negotiation.connection(in: .haveLocalOffer)
        _ = try pc.setRemoteDescription(.answer, sdp: Negotiation.answer())
        let current = pc.currentRemoteDescription
        _ = try pc.setRemoteDescription(.offer, sdp: Negotiation.offer(ufrag: "rnew"))
        #expect(try pc.setRemoteDescription(.rollback, sdp: "not even sdp") == [.signalingStateChanged(.stable)])
        #expect(pc.pendingRemoteDescription == nil)
        #expect(pc.currentRemoteDescription == current)
    }

    @Test func glareRollsBackImplicitlyAndReportsIt() throws {
        var pc = try Negotiation.connection(in: .haveLocalOffer)
        let events = try pc.setRemoteDescription(.offer, sdp: Negotiation.offer(ufrag: "glar"))
        #expect(events == [.implicitRollback, .signalingStateChanged(.stable), .signalingStateChanged(.haveRemoteOffer)])
        #expect(pc.pendingLocalDescription == nil)
        #expect(pc.pendingRemoteDescription?.description.media[0].iceUfrag == "glar")
    }

    @Test func glareIsRejectedUnderTheRejectPolicy() throws {
        var pc = try Negotiation.connection(in: .haveLocalOffer, policy: .reject)
        #expect(throws: PeerConnectionError.invalidState(operation: "setRemoteDescription(offer) during glare", state: .haveLocalOffer)) {
            try pc.setRemoteDescription(.offer, sdp: Negotiation.offer())
        }
        #expect(pc.pendingLocalDescription != nil)
    }

    @Test func glareWithBrokenSDPKeepsTheLocalOffer() throws {
        var pc = try Negotiation.connection(in: .haveLocalOffer)
        #expect(throws: PeerConnectionError.self) { try pc.setRemoteDescription(.offer, sdp: "v=0\nbroken\n") }
        #expect(pc.signalingState == .haveLocalOffer && pc.pendingLocalDescription != nil)
    }

    @Test func createAnswerOutsideTheOfferStatesIsInvalidState() {
        var pc = PeerConnection()
        #expect(throws: PeerConnectionError.invalidState(operation: "createAnswer", state: .stable)) {
            try pc.createAnswer(Negotiation.answerModel)
        }
    }
}
