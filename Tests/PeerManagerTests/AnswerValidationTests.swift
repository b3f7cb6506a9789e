import Foundation
import PeerManager
import SDP
import Testing

/// `processAnswer` applies an answer only when it fits the offer, and names the rules a bad one breaks.
@Suite struct AnswerValidationTests {
    /// Alice's offer to bob and bob's answer text, not yet applied.
    private static func offered() async throws -> (alice: PeerManager, answer: String) {
        let alice = PeerManager(), bob = PeerManager()
        let offer = try await alice.generateOffer(for: "peer", media: .audioVideo())
        return (alice, try await bob.processOffer(offer, for: "peer"))
    }

    private static func rules(of error: PeerManagerError) -> Set<AnswerRule> {
        if case .invalidAnswer(_, let violations) = error { Set(violations.map(\.rule)) } else { [] }
    }

    @Test func anAnswerThatDoesNotEchoTheMidsIsRefusedNamingTheRuleAndAGoodOneStillApplies() async throws {
        let (alice, answer) = try await Self.offered()
        let mid = try #require(try SessionDescription(parsing: answer).media.first?.mid)
        let renamed = answer.replacingOccurrences(of: "a=mid:\(mid)\r\n", with: "a=mid:elsewhere\r\n")
        #expect(renamed != answer)

        let error = await #expect(throws: PeerManagerError.self) { try await alice.processAnswer(renamed, for: "peer") }
        #expect(Self.rules(of: try #require(error)).contains(.midEcho))
        #expect("\(try #require(error))".contains("mid-echo"))

        // Nothing was applied: the offer still waits, and the right answer goes in.
        #expect(await alice.connection("peer")?.signalingState == .haveLocalOffer)
        try await alice.processAnswer(answer, for: "peer")
        #expect(await alice.connection("peer")?.signalingState == .stable)
    }

    @Test func anAnswerWithAPayloadTypeTheOfferDidNotListIsRefused() async throws {
        let (alice, answer) = try await Self.offered()
        let description = try SessionDescription(parsing: answer)
        let format = try #require(description.media.first?.formats.first)
        let foreign = answer.replacingOccurrences(of: "a=rtpmap:\(format) ", with: "a=rtpmap:127 ")
            .replacingOccurrences(of: " \(format)\r\n", with: " 127\r\n")
        let error = await #expect(throws: PeerManagerError.self) { try await alice.processAnswer(foreign, for: "peer") }
        #expect(!Self.rules(of: try #require(error)).isEmpty)
    }
}
