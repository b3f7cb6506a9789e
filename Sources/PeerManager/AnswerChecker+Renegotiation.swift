public import SDP

extension AnswerChecker {
    /// The descriptions in force when a subsequent offer renegotiates a session, named by role in the new
    /// exchange (whoever offered before): what each side's current local description is.
    public struct CurrentDescriptions: Sendable {
        /// The offerer's current local description (the answerer's current remote description).
        public var offerer: SessionDescription
        /// The answerer's current local description (the offerer's current remote description).
        public var answerer: SessionDescription

        /// The current descriptions of the offerer and the answerer.
        public init(offerer: SessionDescription, answerer: SessionDescription) {
            self.offerer = offerer
            self.answerer = answerer
        }
    }

    /// ``AnswerRule/iceRestart`` for m-line `index`: an offer whose ice-ufrag or ice-pwd differs from the
    /// offerer's current ones restarts ICE (RFC 8839 §4.4.1.1), and the answer must then change both of its own
    /// (RFC 8445 §9); without a restart it must keep them (JSEP §5.3.1). Sections that are new, or rejected on
    /// either side now or before, are not compared.
    static func checkICERestart(
        _ index: Int, offer: SessionDescription, answer: SessionDescription, current: CurrentDescriptions,
        report: (AnswerRule, Int?, String) -> Void
    ) {
        guard index < current.offerer.media.count, index < current.answerer.media.count,
              !offer.media[index].isRejected, answer.media[index].port != 0,
              !current.offerer.media[index].isRejected, current.answerer.media[index].port != 0
        else { return }
        func credentials(_ description: SessionDescription) -> (ufrag: String?, pwd: String?) {
            (description.effectiveIceUfrag(ofMediaAt: index), description.effectiveIcePwd(ofMediaAt: index))
        }
        let offered = credentials(offer), offeredBefore = credentials(current.offerer)
        let answered = credentials(answer), answeredBefore = credentials(current.answerer)
        let restarts = offered.ufrag != offeredBefore.ufrag || offered.pwd != offeredBefore.pwd
        if restarts, answered.ufrag == answeredBefore.ufrag || answered.pwd == answeredBefore.pwd {
            report(.iceRestart, index, "the offer restarts ICE but the answer keeps its ice-ufrag or ice-pwd")
        } else if !restarts, answered.ufrag != answeredBefore.ufrag || answered.pwd != answeredBefore.pwd {
            report(.iceRestart, index, "the answer changes its ICE credentials but the offer does not restart ICE")
        }
    }

    /// ``AnswerRule/setup`` in a renegotiation: an answer to an actpass offer keeps the DTLS role the answerer has in the
    /// session in force, unless it starts a new DTLS association with another fingerprint (RFC 8842 §5.3).
    static func checkDTLSRole(
        _ index: Int, offer: SessionDescription, answer: SessionDescription, current: CurrentDescriptions,
        report: (AnswerRule, Int?, String) -> Void
    ) {
        guard answer.media[index].port != 0, offer.effectiveSetup(ofMediaAt: index) == .actpass,
              let role = establishedRole(ofMediaAt: index, local: current.answerer, remote: current.offerer),
              let answered = answer.effectiveSetup(ofMediaAt: index), answered != role,
              answer.effectiveFingerprints(ofMediaAt: index) == current.answerer.effectiveFingerprints(ofMediaAt: index)
        else { return }
        report(.setup, index, "setup \(answered.rawValue) changes the DTLS role in force (\(role.rawValue)) without a new certificate")
    }

    /// One side's DTLS role in m-line `index` of the session in force (`local` its current description, `remote` the
    /// peer's): the role it answered with, or, when it offered actpass, the opposite of the role the peer answered with.
    static func establishedRole(ofMediaAt index: Int, local: SessionDescription, remote: SessionDescription) -> SetupRole? {
        guard index < local.media.count, index < remote.media.count,
              local.media[index].port != 0, remote.media[index].port != 0
        else { return nil }
        switch (local.effectiveSetup(ofMediaAt: index), remote.effectiveSetup(ofMediaAt: index)) {
        case (.active, _), (_, .passive): return .active
        case (.passive, _), (_, .active): return .passive
        default: return nil
        }
    }
}
