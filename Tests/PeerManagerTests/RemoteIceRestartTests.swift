import PeerManager
import SDP
import Testing

/// A peer that restarts ICE in its offer gets an answer with new credentials of ours; one that does not keeps
/// ours (RFC 8839 §4.4.1.1, JSEP §5.3). Checked with the answer checker's ice-restart rule against the current
/// descriptions, as `sdp-tool check-answer --offerer-current/--answerer-current` does.
@Suite struct RemoteIceRestartTests {
    /// One offer/answer exchange: `offerer` offers, `answerer` answers, `offerer` applies the answer.
    private static func exchange(_ offerer: PeerManager, _ answerer: PeerManager) async throws
        -> (offer: SessionDescription, answer: SessionDescription)
    {
        let offer = try await offerer.generateOffer(for: "peer", media: .audioVideo())
        let answer = try await answerer.processOffer(offer, for: "peer")
        try await offerer.processAnswer(answer, for: "peer")
        return (try SessionDescription(parsing: offer), try SessionDescription(parsing: answer))
    }

    private static func credentials(_ description: SessionDescription) -> [String?] {
        description.media.indices.flatMap { [description.effectiveIceUfrag(ofMediaAt: $0), description.effectiveIcePwd(ofMediaAt: $0)] }
    }

    @Test func aRemoteIceRestartGetsNewAnswererCredentialsAndAPlainRenegotiationKeepsThem() async throws {
        let alice = PeerManager(), bob = PeerManager()
        let first = try await Self.exchange(alice, bob)

        // When alice restarts ICE and offers again
        try await alice.restartIce(for: "peer")
        let restart = try await Self.exchange(alice, bob)

        // Then bob's answer changes both of its credentials in every section, as the rule demands
        #expect(Self.credentials(restart.offer) != Self.credentials(first.offer))
        let before = Self.credentials(first.answer), after = Self.credentials(restart.answer)
        #expect(zip(before, after).allSatisfy { $0 != $1 })
        #expect(AnswerChecker.violations(offer: restart.offer, answer: restart.answer,
                                         current: .init(offerer: first.offer, answerer: first.answer)).isEmpty)

        // And an offer that does not restart ICE is answered with the credentials now in force
        let plain = try await Self.exchange(alice, bob)
        #expect(Self.credentials(plain.answer) == after)
        #expect(AnswerChecker.violations(offer: plain.offer, answer: plain.answer,
                                         current: .init(offerer: restart.offer, answerer: restart.answer)).isEmpty)
    }

    @Test func aRemoteCandidateOfTheGenerationARestartReplacedIsRefused() async throws {
        let alice = PeerManager(), bob = PeerManager()
        let first = try await Self.exchange(alice, bob)
        let oldUfrag = try #require(first.offer.effectiveIceUfrag(ofMediaAt: 0))
        try await alice.restartIce(for: "peer")
        _ = try await Self.exchange(alice, bob)

        // A late candidate of alice's old generation no longer applies on bob's side
        let stale = IceCandidate(candidate: "candidate:1 1 udp 2122260223 192.0.2.1 50000 typ host ufrag \(oldUfrag)",
                                 sdpMid: first.offer.media[0].mid, sdpMLineIndex: 0, usernameFragment: oldUfrag)
        await #expect(throws: PeerManagerError.self) { try await bob.addICECandidate(stale, for: "peer") }
    }
}
