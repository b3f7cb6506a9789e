import SignalingSupport
import PeerManager
import SDP
import Testing
import TestSupport

/// aiortc (Python) as an independent witness (docs/testing.md#witnesses): it makes an offer, our AnswerBuilder answers,
/// and aiortc's own setRemoteDescription must accept the answer. Skips without aiortc; fails under `CI=true`.
@Suite struct AiortcWitnessTests {
    /// Runs the witness: returns aiortc's offer and, after our answer, its verdict line.
    static func negotiate(kinds: [String], policy: AnswerPolicy) async throws
        -> (offer: SessionDescription, verdict: String)
    {
        var offered: SessionDescription?
        let verdict = try await AiortcWitness.verdict(offering: kinds) { text in
            let offer = try SessionDescription(parsing: text)
            offered = offer
            var generator = SeededRandomNumberGenerator(seed: 21)
            let answer = AnswerBuilder.answer(
                to: offer, policy: policy, credentials: .random(using: &generator),
                fingerprint: .randomSHA256(using: &generator), sessionID: generator.next())
            #expect(AnswerChecker.violations(offer: offer, answer: answer) == [])
            return answer.serialized()
        }
        return (try #require(offered), verdict)
    }

    @Test(.enabled(if: AiortcWitness.shouldRun, "python3 with aiortc not found; skipped"), .timeLimit(.minutes(1)))
    func aiortcAcceptsOurAnswerToItsAudioVideoDataOffer() async throws {
        let host = try CandidateAttribute(parsing: "candidate:1 1 udp 2130706431 127.0.0.1 40000 typ host")
        let result = try await Self.negotiate(
            kinds: ["audio", "video", "data"],
            policy: AnswerPolicy(address: "127.0.0.1", port: 40000, candidates: [host]))
        #expect(result.offer.media.map(\.kind) == ["audio", "video", "application"])
        #expect(result.verdict == "accepted stable")
    }

    @Test(.enabled(if: AiortcWitness.shouldRun, "python3 with aiortc not found; skipped"), .timeLimit(.minutes(1)))
    func aiortcAcceptsOurAnswerRejectingVideo() async throws {
        let result = try await Self.negotiate(kinds: ["audio", "video"], policy: AnswerPolicy(rejectedKinds: ["video"]))
        #expect(result.verdict == "accepted stable")
    }
}
