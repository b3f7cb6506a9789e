import SignalingSupport
import PeerManager
import SDP
import Testing

/// Subsequent offers (JSEP §5.2.2, RFC 3264 §8; docs/sdp-jsep.md#subsequent-offers): every m-line of the session in
/// force stays, in order, with its mid; rejected ones stay at port 0; directions change by mid; each answer passes the
/// checker against the current descriptions, as `sdp-tool check-answer --offerer-current/--answerer-current` does.
@Suite struct SubsequentOfferTests {
    static let media = MediaConfiguration(
        audio: .init(direction: .sendrecv, codecs: [.opus]), video: .init(direction: .sendrecv, codecs: [.vp8]),
        dataChannel: true)

    /// alice offers audio, video and a data channel to bob, who rejects `rejecting`; the exchange completes.
    static func negotiated(rejecting: Set<String> = []) async throws -> (alice: PeerManager, bob: PeerManager) {
        let alice = PeerManager(generator: SeededRandomNumberGenerator(seed: 31))
        let bob = PeerManager(answerPolicy: AnswerPolicy(rejectedKinds: rejecting), generator: SeededRandomNumberGenerator(seed: 32))
        let offer = try await alice.generateOffer(for: "c", media: media)
        try await alice.processAnswer(try await bob.processOffer(offer, for: "c"), for: "c")
        return (alice, bob)
    }

    /// One exchange started by `offer` (made by `offerer`): `answerer` answers, `offerer` applies the answer. Returns
    /// both, and what the checker finds against the descriptions in force before.
    static func round(
        _ offerer: PeerManager, _ answerer: PeerManager, offer: (PeerManager) async throws -> String
    ) async throws -> (offer: SessionDescription, answer: SessionDescription, violations: [AnswerViolation]) {
        let before = try #require(await offerer.connection("c")?.currentDescriptions)
        let offerText = try await offer(offerer)
        let answerText = try await answerer.processOffer(offerText, for: "c")
        try await offerer.processAnswer(answerText, for: "c")
        let offer = try SessionDescription(parsing: offerText), answer = try SessionDescription(parsing: answerText)
        let current = AnswerChecker.CurrentDescriptions(offerer: before.local, answerer: before.remote)
        return (offer, answer, AnswerChecker.violations(offer: offer, answer: answer, current: current))
    }

    static func credentials(_ description: SessionDescription, _ index: Int) -> IceCredentials? {
        description.effectiveIceUfrag(ofMediaAt: index).flatMap { ufrag in
            description.effectiveIcePwd(ofMediaAt: index).map { IceCredentials(ufrag: ufrag, pwd: $0) }
        }
    }

    @Test func aSubsequentOfferKeepsEveryMLineMidAndOrderAndTheRejectedOneAtPortZero() async throws {
        // Given a session where bob rejected video
        let (alice, bob) = try await Self.negotiated(rejecting: ["video"])
        let first = try #require(await alice.connection("c")?.currentLocalDescription?.description)

        // When alice renegotiates it
        let next = try await Self.round(alice, bob) { try await $0.renegotiate("c") }

        // Then the offer keeps the m-lines, mids and order, video at port 0 and out of the BUNDLE group
        #expect(next.offer.media.map(\.kind) == ["audio", "video", "application"])
        #expect(next.offer.media.map(\.mid) == ["0", "1", "2"])
        #expect(next.offer.media.map(\.port) == [9, 0, 9])
        #expect(next.offer.bundleGroups.map(\.mids) == [["0", "2"]])
        // And the same session, a higher version and the same credentials
        #expect(next.offer.origin?.sessionID == first.origin?.sessionID)
        #expect(next.offer.origin?.sessionVersion == (first.origin?.sessionVersion ?? 0) + 1)
        #expect(Self.credentials(next.offer, 0) == Self.credentials(first, 0))
        // And bob's answer fits it, the renegotiation rules included, and the connection is stable again
        #expect(next.violations == [])
        #expect(await alice.connection("c")?.signalingState == .stable)
    }

    @Test func holdAndResumeByDirectionAreOfferedAndAnsweredByMid() async throws {
        let (alice, bob) = try await Self.negotiated()

        // When alice puts audio on hold (RFC 3264 §8.4: she stops receiving it)
        try await alice.setDirection(.sendonly, forMid: "0", of: "c")
        let hold = try await Self.round(alice, bob) { try await $0.renegotiate("c") }

        // Then only audio changes, and bob answers it recvonly
        #expect(hold.offer.media.map(\.direction) == [.sendonly, .sendrecv, nil])
        #expect(hold.answer.effectiveDirection(ofMediaAt: 0) == .recvonly)
        #expect(hold.violations == [])

        // And resuming returns it to sendrecv
        try await alice.setDirection(.sendrecv, forMid: "0", of: "c")
        let resume = try await Self.round(alice, bob) { try await $0.renegotiate("c") }
        #expect(resume.answer.effectiveDirection(ofMediaAt: 0) == .sendrecv)
        #expect(resume.violations == [])
    }

    @Test func generateOfferOnANegotiatedSessionStopsAndAddsSectionsInPlace() async throws {
        let (alice, bob) = try await Self.negotiated()

        // When alice asks for audio and the data channel only, video stops at port 0 and keeps its place and mid
        let audioOnly = MediaConfiguration(audio: Self.media.audio, dataChannel: true)
        let stop = try await Self.round(alice, bob) { try await $0.generateOffer(for: "c", media: audioOnly) }
        #expect(stop.offer.media.map(\.port) == [9, 0, 9])
        #expect(stop.offer.media.map(\.mid) == ["0", "1", "2"])
        #expect(stop.violations == [])

        // And asking for video again adds a new section after the others, with a new mid
        let again = try await Self.round(alice, bob) { try await $0.generateOffer(for: "c", media: Self.media) }
        #expect(again.offer.media.map(\.kind) == ["audio", "video", "application", "video"])
        #expect(again.offer.media.map(\.mid) == ["0", "1", "2", "3"])
        #expect(again.offer.media.map(\.port) == [9, 0, 9, 9])
        #expect(again.offer.bundleGroups.map(\.mids) == [["0", "2", "3"]])
        #expect(again.violations == [])
    }

    @Test func askingAgainForAKindThePeerRejectedAddsASectionForIt() async throws {
        // Given a session where bob rejected video
        let (alice, _) = try await Self.negotiated(rejecting: ["video"])

        // When alice offers audio, video and data again, the rejected section stays at port 0 and video comes anew
        let offer = try SessionDescription(parsing: try await alice.generateOffer(for: "c", media: Self.media))
        #expect(offer.media.map(\.kind) == ["audio", "video", "application", "video"])
        #expect(offer.media.map(\.port) == [9, 0, 9, 9])
    }

    @Test func theAnswererCanRenegotiateTheSessionItAnsweredAndEachSideKeepsItsDTLSRole() async throws {
        let (alice, bob) = try await Self.negotiated()
        let aliceOffer = try #require(await alice.connection("c")?.currentLocalDescription?.description)
        let bobAnswer = try #require(await bob.connection("c")?.currentLocalDescription?.description)
        #expect(bobAnswer.effectiveSetup(ofMediaAt: 0) == .active)

        // When bob, who answered, offers next
        let next = try await Self.round(bob, alice) { try await $0.renegotiate("c") }

        // Then his offer keeps alice's m-lines, mids and order, offers actpass, and alice's answer keeps her role:
        // passive, since bob has been the DTLS client (RFC 8842 §5.3)
        #expect(next.offer.media.map(\.mid) == aliceOffer.media.map(\.mid))
        #expect(next.offer.media.map(\.kind) == aliceOffer.media.map(\.kind))
        #expect(next.offer.effectiveSetup(ofMediaAt: 0) == .actpass)
        #expect(next.answer.media.indices.map { next.answer.effectiveSetup(ofMediaAt: $0) } == [.passive, .passive, .passive])
        #expect(next.violations == [])

        // And the checker refuses an answer that takes the active role bob already has
        var flipped = next.answer
        flipped.setup = nil
        for index in flipped.media.indices { flipped.media[index].setup = .active }
        let current = AnswerChecker.CurrentDescriptions(offerer: bobAnswer, answerer: aliceOffer)
        #expect(AnswerChecker.violations(offer: next.offer, answer: flipped, current: current).map(\.rule)
                == [.setup, .setup, .setup])
    }

    @Test func restartIceGivesTheNextOfferNewCredentialsUntilAnAnswerCompletesIt() async throws {
        let (alice, bob) = try await Self.negotiated()
        let first = try #require(await alice.connection("c")?.currentDescriptions)

        // When alice restarts ICE, offers, and rolls that offer back
        try await alice.restartIce(for: "c")
        let rolledBack = try SessionDescription(parsing: try await alice.renegotiate("c"))
        try await alice.rollback("c")
        #expect(await alice.connection("c")?.signalingState == .stable)
        #expect(await alice.connection("c")?.currentLocalDescription?.description == first.local)

        // Then the next offer still restarts, with credentials of its own, and bob's answer restarts too
        let restart = try await Self.round(alice, bob) { try await $0.renegotiate("c") }
        #expect(Self.credentials(rolledBack, 0) != Self.credentials(first.local, 0))
        #expect(Self.credentials(restart.offer, 0) != Self.credentials(first.local, 0))
        #expect(Self.credentials(restart.answer, 0) != Self.credentials(first.remote, 0))
        #expect(restart.violations == [])

        // And once answered, the restart is done: the next offer keeps the new credentials
        let plain = try await Self.round(alice, bob) { try await $0.renegotiate("c") }
        #expect(Self.credentials(plain.offer, 0) == Self.credentials(restart.offer, 0))
        #expect(plain.violations == [])
    }

    @Test func renegotiatingBeforeAFirstNegotiationOrRollingBackInStableIsAnInvalidState() async throws {
        let manager = PeerManager(generator: SeededRandomNumberGenerator(seed: 33))
        await #expect(throws: PeerManagerError.unknownConnection("c")) { try await manager.renegotiate("c") }
        _ = try await manager.generateOffer(for: "c", media: Self.media)
        await #expect(throws: PeerManagerError.connection(
            id: "c", .invalidState(operation: "renegotiate", state: .haveLocalOffer))) { try await manager.renegotiate("c") }
        try await manager.rollback("c")
        await #expect(throws: PeerManagerError.connection(
            id: "c", .invalidState(operation: "setLocalDescription(rollback)", state: .stable))) { try await manager.rollback("c") }
    }
}
