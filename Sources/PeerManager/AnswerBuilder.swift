public import SDP

/// Builds the answer a media server gives to an offer (RFC 3264 §6, RFC 9143 §7.3, RFC 5763 §5;
/// docs/sdp-jsep.md#offer-and-answer). The answerer is ICE-lite, or a full ICE agent that trickles
/// (``AnswerPolicy/trickle``).
public enum AnswerBuilder {
    /// The answer to `offer`.
    /// - Parameters:
    ///   - offer: the remote offer.
    ///   - policy: what the answerer accepts (codecs, kinds, directions, extensions) and its address.
    ///   - credentials: the answerer's ICE username fragment and password.
    ///   - fingerprint: the answerer's DTLS certificate fingerprint.
    ///   - sessionID: the `o=` session id, from an injected generator.
    ///   - sessionVersion: the `o=` session version; incremented for each new answer of the session.
    public static func answer(
        to offer: SessionDescription, policy: AnswerPolicy = AnswerPolicy(), credentials: IceCredentials,
        fingerprint: Fingerprint, sessionID: UInt64, sessionVersion: UInt64 = 1
    ) -> SessionDescription {
        var answer = SessionDescription(lines: [
            SDPLine(type: "v", value: "0"),
            SDPLine(type: "o", value: Origin(sessionID: sessionID & (1 << 63 - 1), sessionVersion: sessionVersion, address: policy.address).lineValue),
            SDPLine(type: "s", value: "-"),
            SDPLine(type: "c", value: Connection(address: policy.address).lineValue),
            // RFC 3264 §6: "The t= line in the answer MUST equal that of the offer."
            SDPLine(type: "t", value: offer.lines.first { $0.type == "t" }?.value ?? "0 0"),
        ])
        // docs/sdp-jsep.md#transport-attributes: ICE-lite, or a trickling full agent announcing trickle at session
        // level.
        answer.iceLite = !policy.trickle
        if policy.trickle { answer.iceOptions = ["trickle"] }
        // Session-level credentials, fingerprint and setup as well (RFC 8839 §5.4, RFC 8122 §5, RFC 4145: media
        // level overrides): a rejected section carries only a=mid, and aiortc (our witness) still wants ICE and
        // DTLS parameters that apply to it ("ICE username fragment or password is missing").
        answer.iceUfrag = credentials.ufrag
        answer.icePwd = credentials.pwd
        answer.fingerprints = [fingerprint]
        if !offer.media.isEmpty { answer.setup = answerSetup(to: offer.effectiveSetup(ofMediaAt: 0), policy: policy) }
        answer.media = offer.media.indices.map { index in
            section(answering: index, of: offer, policy: policy, credentials: credentials, fingerprint: fingerprint)
        }
        // RFC 9143 §7.3: the tagged section is the first accepted mid of the offered group; it goes first.
        for group in offer.bundleGroups {
            let accepted = group.mids.filter { mid in answer.media.contains { $0.mid == mid && $0.port != 0 } }
            if !accepted.isEmpty { answer.groups.append(MediaGroup(semantics: "BUNDLE", mids: accepted)) }
        }
        return answer
    }

    static func section(
        answering index: Int, of offer: SessionDescription, policy: AnswerPolicy, credentials: IceCredentials,
        fingerprint: Fingerprint
    ) -> MediaDescription {
        let offered = offer.media[index]
        var media = MediaDescription(kind: offered.kind, port: policy.port, portCount: nil, proto: offered.proto, formats: [])
        let accepted: Bool
        if offered.isRejected || policy.rejectedKinds.contains(offered.kind) {
            accepted = false
        } else if offered.proto.contains("RTP") {
            accepted = answerRTP(offered, direction: offer.effectiveDirection(ofMediaAt: index), policy: policy, into: &media)
        } else if offered.proto.contains("SCTP") && policy.acceptsDataChannels {
            answerData(offered, into: &media)
            accepted = true
        } else {
            accepted = false
        }
        guard accepted else { return MediaDescription(rejecting: offered) }
        media.mid = offered.mid
        OfferBuilder.addTransport(to: &media, credentials: credentials, fingerprint: fingerprint,
                                  setup: answerSetup(to: offer.effectiveSetup(ofMediaAt: index), policy: policy))
        media.iceOptions = []
        guard !policy.trickle else { return media }
        for candidate in policy.candidates { media.addCandidate(candidate) }
        media.endOfCandidates = true
        return media
    }

    /// RFC 4145 / RFC 5763 §5: actpass → active; active → passive; passive → active; absent → the policy's
    /// ``AnswerPolicy/setupWhenOfferHasNone`` (passive by default: RFC 4145 §4 makes an absent attribute mean active).
    static func answerSetup(to offered: SetupRole?, policy: AnswerPolicy) -> SetupRole {
        switch offered {
        case .active: .passive
        case .holdconn: .holdconn
        case .passive, .actpass: .active
        case nil: policy.setupWhenOfferHasNone
        }
    }

    /// RFC 3264 §6.1 direction: send only what the offerer receives, receive only what it sends, within the
    /// answerer's own ability.
    static func answerDirection(to offered: MediaDirection, ability: MediaDirection) -> MediaDirection {
        let sends = offered.receives && ability.sends
        let receives = offered.sends && ability.receives
        switch (sends, receives) {
        case (true, true): return .sendrecv
        case (true, false): return .sendonly
        case (false, true): return .recvonly
        case (false, false): return .inactive
        }
    }

    /// Fills an accepted RTP section; `false` when no offered codec is supported.
    static func answerRTP(_ offered: MediaDescription, direction: MediaDirection, policy: AnswerPolicy, into media: inout MediaDescription) -> Bool {
        let maps = offered.rtpMaps
        func map(_ pt: Int) -> RTPMap? { maps.first { $0.payloadType == pt } ?? AnswerPolicy.staticPayloadTypes[pt] }
        // Keep the offerer's payload-type numbers (RFC 3264 §6.1), in the offer's order.
        var kept = offered.payloadTypes.filter { pt in
            guard let map = map(pt), map.encodingName.lowercased() != "rtx" else { return false }
            return policy.supports(map)
        }
        guard !kept.isEmpty else { return false }
        let primaries = Set(kept)
        kept = offered.payloadTypes.filter { pt in
            primaries.contains(pt) || offered.formatParameters(for: pt)?.value(for: "apt").flatMap { Int($0) }.map(primaries.contains) == true
                && map(pt)?.encodingName.lowercased() == "rtx"
        }
        media.formats = kept.map(String.init)
        media.direction = answerDirection(to: direction, ability: policy.directions[offered.kind] ?? .sendrecv)
        if offered.rtcpMux { media.rtcpMux = true }
        media.extmaps = offered.extmaps.filter { policy.headerExtensions.contains($0.uri) }.map { ExtMap(id: $0.id, uri: $0.uri) }
        for pt in kept {
            if let rtpMap = maps.first(where: { $0.payloadType == pt }) {
                media.appendAttribute(SDPAttribute(name: "rtpmap", value: rtpMap.attributeValue))
            }
            if let fmtp = offered.formatParameters(for: pt) {
                media.appendAttribute(SDPAttribute(name: "fmtp", value: fmtp.attributeValue))
            }
            for feedback in offered.rtcpFeedback(for: pt) {
                media.appendAttribute(SDPAttribute(name: "rtcp-fb", value: feedback.attributeValue))
            }
        }
        // docs/sdp-jsep.md#answer-details: answer offered send rids with recv rids and reverse the simulcast direction.
        let sentRIDs = offered.rids.filter { $0.direction == .send }
        if media.direction?.receives == true, let simulcast = offered.simulcast, !simulcast.send.isEmpty, !sentRIDs.isEmpty {
            media.rids = sentRIDs.map { RTPStreamID(id: $0.id, direction: .recv) }
            media.simulcast = Simulcast(receive: simulcast.send)
        }
        return true
    }

    /// Fills an accepted data-channel section in the form offered (RFC 8841, or legacy sctpmap).
    static func answerData(_ offered: MediaDescription, into media: inout MediaDescription) {
        media.formats = offered.formats
        if offered.proto.hasSuffix("DTLS/SCTP") && offered.formats == ["webrtc-datachannel"] {
            media.sctpPort = offered.sctpPort ?? 5000
            media.maxMessageSize = 262_144
        } else {
            for value in offered.attributeValues(named: "sctpmap") {
                media.appendAttribute(SDPAttribute(name: "sctpmap", value: String(value)))
            }
        }
    }
}

extension MediaDescription {
    /// The rejected form of `section`, for an answer or a subsequent offer: port 0 and one format (RFC 3264 §6, §8.2);
    /// JSEP keeps the a=mid.
    init(rejecting section: MediaDescription) {
        self.init(kind: section.kind, port: 0, proto: section.proto, formats: [section.formats.first ?? "0"])
        mid = section.mid
        // W3C/aiortc refuse a remote description with an RTP section lacking rtcp-mux, rejected or not.
        if section.rtcpMux { rtcpMux = true }
        // The listed format keeps its rtpmap so that a parser mapping codecs (aiortc) finds one.
        if let pt = Int(formats[0]), let map = section.rtpMap(for: pt) {
            appendAttribute(SDPAttribute(name: "rtpmap", value: map.attributeValue))
        }
    }
}
