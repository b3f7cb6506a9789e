import PeerManager
import SDP
import TestSupport
import Testing

/// ``AnswerRule/iceRestart``: a subsequent offer checked against the descriptions in force before it.
@Suite struct AnswerCheckerRenegotiationTests {
    /// `description` with ice-ufrag `ufrag` and ice-pwd `pwd` at session level and in every section that has its own.
    static func with(_ description: SessionDescription, ufrag: String, pwd: String) throws -> SessionDescription {
        var changed = description
        changed.iceUfrag = ufrag
        changed.icePwd = pwd
        for index in changed.media.indices where changed.media[index].iceUfrag != nil {
            changed.media[index].iceUfrag = ufrag
            changed.media[index].icePwd = pwd
        }
        return try SessionDescription(parsing: changed.serialized())
    }

    /// The first exchange over the Chrome-shaped offer: the current descriptions of a renegotiation.
    static func current() throws -> AnswerChecker.CurrentDescriptions {
        let offer = try SDPFiles.fixture("chrome-offer.sdp")
        let answer = try SessionDescription(parsing: AnswerBuilderTests.answer(offer).serialized())
        #expect(AnswerChecker.violations(offer: offer, answer: answer) == [])
        return .init(offerer: offer, answerer: answer)
    }

    static let newUfrag = "rEsT", newPwd = "restartedPasswordOf24ch"

    @Test func offerWithoutRestartIsAnsweredWithTheSameCredentials() throws {
        // Given a renegotiation whose offer keeps its credentials
        let current = try Self.current()

        // Then an answer that keeps its own passes, and one that changes them breaks ice-restart on every section
        #expect(AnswerChecker.violations(offer: current.offerer, answer: current.answerer, current: current) == [])
        let changed = try Self.with(current.answerer, ufrag: Self.newUfrag, pwd: Self.newPwd)
        let found = AnswerChecker.violations(offer: current.offerer, answer: changed, current: current)
        #expect(found.map(\.rule) == [.iceRestart, .iceRestart, .iceRestart])
        #expect(found.first?.description == "ice-restart [m-line 0]: the answer changes its ICE credentials but the offer does not restart ICE")
    }

    @Test func offerThatRestartsICEIsAnsweredWithNewCredentials() throws {
        // Given a renegotiation whose offer has new credentials (an ICE restart)
        let current = try Self.current()
        let restart = try Self.with(current.offerer, ufrag: "oFfR", pwd: "offererRestartedPwd2345")

        // Then an answer with new credentials passes, and one with the current ones breaks ice-restart
        let renewed = try Self.with(current.answerer, ufrag: Self.newUfrag, pwd: Self.newPwd)
        #expect(AnswerChecker.violations(offer: restart, answer: renewed, current: current) == [])
        let stale = AnswerChecker.violations(offer: restart, answer: current.answerer, current: current)
        #expect(stale.map(\.rule) == [.iceRestart, .iceRestart, .iceRestart])
        #expect(stale.first?.message == "the offer restarts ICE but the answer keeps its ice-ufrag or ice-pwd")

        // And without the current descriptions (an initial offer) the rule is not checked
        #expect(AnswerChecker.violations(offer: restart, answer: current.answerer) == [])
    }
}
