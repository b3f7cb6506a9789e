import SignalingSupport
import PeerManager
import SDP
import TestSupport
import Testing

/// Pranswers through the registry, and the DTLS role an answer takes (RFC 4145, RFC 5763 §5, RFC 8842 §5.3;
/// docs/sdp-jsep.md#setup).
@Suite struct ProvisionalAnswerAndSetupTests {
    @Test func aProvisionalAnswerIsFollowedByTheFinalOneOnBothSides() async throws {
        let alice = PeerManager(generator: SeededRandomNumberGenerator(seed: 51))
        let bob = PeerManager(generator: SeededRandomNumberGenerator(seed: 52))
        let events = await bob.events()
        let offer = try await alice.generateOffer(for: "c", media: .audioVideo())

        // When bob answers provisionally and alice applies it as a pranswer
        let provisional = try await bob.processOffer(offer, for: "c", provisional: true)
        try await alice.processAnswer(provisional, for: "c", provisional: true)
        #expect(await bob.connection("c")?.signalingState == .haveLocalPranswer)
        #expect(await alice.connection("c")?.signalingState == .haveRemotePranswer)

        // Then the final answer completes both, and bob reported both answers in order
        let final = try await bob.answerPendingOffer(for: "c")
        try await alice.processAnswer(final, for: "c")
        #expect(await bob.connection("c")?.signalingState == .stable)
        #expect(await alice.connection("c")?.signalingState == .stable)
        var answers: [String] = []
        for try await event in events {
            if case .answerGenerated(_, let sdp) = event { answers.append(sdp) }
            if answers.count == 2 { break }
        }
        #expect(answers == [provisional, final])
    }

    @Test func thereIsNoPendingOfferToAnswerInStable() async throws {
        let bob = PeerManager(generator: SeededRandomNumberGenerator(seed: 53))
        await #expect(throws: PeerManagerError.unknownConnection("c")) { try await bob.answerPendingOffer(for: "c") }
        let alice = PeerManager(generator: SeededRandomNumberGenerator(seed: 54))
        let offer = try await alice.generateOffer(for: "c", media: .audioVideo())
        _ = try await bob.processOffer(offer, for: "c")
        await #expect(throws: PeerManagerError.connection(id: "c", .invalidState(operation: "answer", state: .stable))) {
            try await bob.answerPendingOffer(for: "c")
        }
    }

    /// Chrome's offer with its a=setup lines replaced by `role` (removed when `nil`).
    static func offer(setup role: SetupRole?) throws -> SessionDescription {
        var offer = try SDPFiles.fixture("chrome-offer.sdp")
        offer.setup = nil
        for index in offer.media.indices { offer.media[index].setup = role }
        return offer
    }

    static func setups(_ description: SessionDescription) -> Set<SetupRole?> {
        Set(description.media.indices.filter { description.media[$0].port != 0 }.map { description.effectiveSetup(ofMediaAt: $0) })
    }

    @Test func anOfferWithoutSetupIsAnsweredPassivePerRFC4145OrAsThePolicySays() throws {
        var generator = SeededRandomNumberGenerator(seed: 55)
        let offer = try Self.offer(setup: nil)
        var session = LocalSession(using: &generator)

        // RFC 4145 §4: no a=setup means the offerer is active, so we are passive
        let rfc = session.answer(to: offer, current: nil, policy: AnswerPolicy(), using: &generator)
        #expect(Self.setups(rfc) == [.passive])
        // libwebrtc reads it as actpass and answers active; the policy can do the same
        let libwebrtc = session.answer(
            to: offer, current: nil, policy: AnswerPolicy(setupWhenOfferHasNone: .active), using: &generator)
        #expect(Self.setups(libwebrtc) == [.active])
        #expect(AnswerChecker.violations(offer: offer, answer: rfc).isEmpty)
        #expect(AnswerChecker.violations(offer: offer, answer: libwebrtc).isEmpty)
    }

    @Test func aSubsequentActpassOfferIsAnsweredWithTheRoleInForce() async throws {
        // Given a first offer that takes the active role, answered passive
        let bob = PeerManager(generator: SeededRandomNumberGenerator(seed: 56))
        let first = try SessionDescription(parsing: try await bob.processOffer(try Self.offer(setup: .active).serialized(), for: "c"))
        #expect(Self.setups(first) == [.passive])

        // When the peer renegotiates with actpass
        var again = try Self.offer(setup: .actpass)
        again.origin?.sessionVersion += 1
        let second = try SessionDescription(parsing: try await bob.processOffer(again.serialized(), for: "c"))

        // Then bob stays passive instead of taking the active role a first answer to actpass would take
        #expect(Self.setups(second) == [.passive])
        #expect(AnswerChecker.violations(offer: again, answer: second).isEmpty)
    }
}
