public import SDP

/// Checks an answer against its offer, reading both through the SDP parser's model only.
public enum AnswerChecker {
    /// Every rule the pair breaks, in m-line order; empty when the answer is valid.
    /// - Parameters:
    ///   - offer: The offer.
    ///   - answer: Its answer.
    ///   - current: For a renegotiation (a subsequent offer), the descriptions in force before it; with them
    ///     ``AnswerRule/iceRestart`` is checked too. `nil` (the default) for an initial offer.
    public static func violations(offer: SessionDescription, answer: SessionDescription,
                                  current: CurrentDescriptions? = nil) -> [AnswerViolation] {
        var found: [AnswerViolation] = []
        func report(_ rule: AnswerRule, _ line: Int?, _ message: String) {
            found.append(AnswerViolation(rule: rule, mLine: line, message: message))
        }
        if offer.media.count != answer.media.count {
            report(.mLineCount, nil, "offer has \(offer.media.count) m-lines, answer \(answer.media.count)")
        }
        let offerDuplicates = offer.duplicateMids
        for duplicate in offerDuplicates { report(.uniqueMid, nil, "the offer's \(duplicate)") }
        for duplicate in answer.duplicateMids where !offerDuplicates.contains(where: { $0.mid == duplicate.mid }) {
            report(.uniqueMid, nil, "the answer's \(duplicate)")
        }
        let offerTiming = offer.lines.first { $0.type == "t" }?.value
        let answerTiming = answer.lines.first { $0.type == "t" }?.value
        // An offer without t= (seen in RTSP-style SDP) leaves the answer free to write the usual "0 0".
        if let offerTiming, offerTiming != answerTiming {
            report(.timing, nil, "t=\(answerTiming ?? "(none)") differs from the offer's t=\(offerTiming)")
        }
        let offeredSemantics = Set(offer.groups.map(\.semantics))
        for group in answer.groups where !offeredSemantics.contains(group.semantics) {
            report(.groupOffered, nil, "group \(group.semantics) was not offered")
        }
        let offeredBundled = Set(offer.bundleGroups.flatMap(\.mids))
        for mid in answer.bundleGroups.flatMap(\.mids) {
            let section = answer.media.first { $0.mid == mid }
            if !offeredBundled.contains(mid) || section == nil || section?.port == 0 {
                report(.bundleSubset, nil, "mid \(mid) is bundled but was not bundled in the offer or is rejected")
            }
        }
        for index in offer.media.indices where index < answer.media.count {
            checkSection(index, offer: offer, answer: answer, report: report)
            if let current {
                checkICERestart(index, offer: offer, answer: answer, current: current, report: report)
                checkDTLSRole(index, offer: offer, answer: answer, current: current, report: report)
            }
        }
        return found
    }

    static func checkSection(
        _ index: Int, offer: SessionDescription, answer: SessionDescription, report: (AnswerRule, Int?, String) -> Void
    ) {
        let o = offer.media[index], a = answer.media[index]
        if o.kind != a.kind { report(.mediaType, index, "\(a.kind) answers \(o.kind)") }
        if o.proto != a.proto { report(.proto, index, "\(a.proto) answers \(o.proto)") }
        if let mid = o.mid, a.mid != mid { report(.midEcho, index, "mid \(a.mid ?? "(none)") answers mid \(mid)") }
        if o.isRejected && a.port != 0 { report(.rejectedStaysRejected, index, "the offer rejected this section") }
        guard a.port != 0 else { return }

        if !o.isRejected, !a.formats.isEmpty, Set(a.formats).isDisjoint(with: o.formats) {
            report(.unsupportedRejected, index, "no format in common with the offer, but port \(a.port) instead of 0")
        }
        if o.proto.contains("RTP") { checkRTP(index, offer: offer, answer: answer, report: report) }
        if a.proto.contains("SCTP"), a.sctpPort == nil, !a.hasAttribute(named: "sctpmap") {
            report(.sctpPort, index, "data section without a=sctp-port")
        }
        let setup = answer.effectiveSetup(ofMediaAt: index)
        switch (offer.effectiveSetup(ofMediaAt: index), setup) {
        case (_, .actpass), (_, nil):
            report(.setup, index, "answer setup must be active or passive, is \(setup?.rawValue ?? "absent")")
        case (.active, let role) where role != .passive, (.passive, let role) where role != .active:
            report(.setup, index, "setup \(setup?.rawValue ?? "") cannot answer the offered role")
        default:
            break
        }
        let credentials = IceCredentials(
            ufrag: answer.effectiveIceUfrag(ofMediaAt: index) ?? "", pwd: answer.effectiveIcePwd(ofMediaAt: index) ?? "")
        if !credentials.isValid { report(.iceCredentials, index, "ice-ufrag/ice-pwd missing or of illegal length") }
        if a.proto.contains("TLS") || a.proto.contains("DTLS"), answer.effectiveFingerprints(ofMediaAt: index).isEmpty {
            report(.fingerprint, index, "no a=fingerprint")
        }
    }

    static func checkRTP(
        _ index: Int, offer: SessionDescription, answer: SessionDescription, report: (AnswerRule, Int?, String) -> Void
    ) {
        let o = offer.media[index], a = answer.media[index]
        let offeredPTs = Set(o.payloadTypes)
        for pt in a.payloadTypes {
            guard offeredPTs.contains(pt) else {
                report(.codecSubset, index, "payload type \(pt) was not offered")
                continue
            }
            let mine = a.rtpMap(for: pt), theirs = o.rtpMap(for: pt)
            if pt >= 96, mine == nil { report(.rtpmapForDynamic, index, "payload type \(pt) has no a=rtpmap") }
            if let mine, let theirs,
                mine.encodingName.lowercased() != theirs.encodingName.lowercased() || mine.clockRate != theirs.clockRate
            {
                report(.codecSubset, index, "payload type \(pt) is \(mine.encodingName) but the offer made it \(theirs.encodingName)")
            }
        }
        let offered = offer.effectiveDirection(ofMediaAt: index), answered = answer.effectiveDirection(ofMediaAt: index)
        if (answered.sends && !offered.receives) || (answered.receives && !offered.sends) {
            report(.direction, index, "\(answered.rawValue) cannot answer \(offered.rawValue)")
        }
        if o.rtcpMux && !a.rtcpMux { report(.rtcpMux, index, "rtcp-mux was offered but not answered") }
        let offeredExtensions = Set(o.extmaps.map { "\($0.id) \($0.uri)" })
        for extmap in a.extmaps where !offeredExtensions.contains("\(extmap.id) \(extmap.uri)") {
            report(.extmapSubset, index, "extmap \(extmap.id) \(extmap.uri) was not offered with that id")
        }
    }
}
