import Foundation
import SignalingSupport
import PeerManager
import SDP

extension KurentoMediaServerDouble {
    /// KMS: SDP `processOffer` (7.x): `""` → 40201 `Empty offer not valid`; the SDP is parsed before the negotiated
    /// flag is looked at, so a bad SDP (40201) does not burn the endpoint; an endpoint that processed an offer or
    /// generated one → 40208 `Endpoint already negotiated`; a negotiation that fails → 40205 and the flag is reset.
    /// The answer comes from `PeerManager.processOffer` as a full ICE agent that trickles (no candidates in it), the
    /// endpoint's direction (sendrecv, or the constructor's recvonly / sendonly) intersected with the offer's.
    /// `MediaSessionStarted` follows (SDP).
    func processOffer(_ id: String, _ params: Any?) throws(RequestFailure) -> Any {
        let request = try Self.paramsObject(params, "operationParams", required: true)
        let offer = try Self.marshalString(request, "offer")
        guard !offer.isEmpty else { throw .kurento(40201, "SDP_PARSE_ERROR", "Empty offer not valid") }
        try Self.checkSDP(offer)
        let (rtc, peers) = try webRtc(of: id)
        guard rtc.negotiation == .none else {
            throw .kurento(40208, "SDP_END_POINT_ALREADY_NEGOTIATED", "Endpoint already negotiated")
        }
        let direction: MediaDirection = rtc.recvonly ? .recvonly : rtc.sendonly ? .sendonly : .sendrecv
        let policy = AnswerPolicy(directions: ["audio": direction, "video": direction],
                                  acceptsDataChannels: rtc.useDataChannels, trickle: true)
        let early = rtc.earlyCandidates
        let outcome = Self.blocking { () async -> (answer: String, applied: Int, connection: PeerConnection?)? in
            guard let answer = try? await peers.processOffer(offer, for: id, policy: policy) else {
                await peers.closeConnection(id)
                return nil
            }
            var applied = 0
            for candidate in early where (try? await peers.addICECandidate(candidate.value, for: id)) != nil {
                applied += 1
            }
            return (answer, applied, await peers.connection(id))
        }
        guard let outcome else {
            throw .kurento(40205, "SDP_END_POINT_PROCESS_OFFER_ERROR", "Error processing offer")
        }
        return state.withLock { s -> String in
            var corrupt = false
            if s.faults.corruptNextAnswer {
                s.faults.corruptNextAnswer = false
                corrupt = true
            }
            negotiated(id, .offerProcessed, outcome.connection, addedCandidates: outcome.applied, in: &s)
            return corrupt ? Self.corrupted(outcome.answer) : outcome.answer
        }
    }

    /// KMS: SDP `generateOffer`: an offer (PeerManager `generateOffer`: audio opus, video VP8 / H264, and a data
    /// channel with `useDataChannels`), in the endpoint's direction; `options.offerToReceiveAudio` / `…Video` false
    /// drop the receiving half of a kind (OfferOptions, WRTC-KMD7). Twice, or after processOffer → 40208.
    func generateOffer(_ id: String, _ params: Any?) throws(RequestFailure) -> Any {
        let request = try Self.paramsObject(params, "operationParams", required: false)
        let options = try Self.marshal(request, "options", .object, required: false) as? [String: Any] ?? [:]
        let receiveAudio = try Self.marshal(options, "offerToReceiveAudio", .boolean, required: false) as? Bool ?? true
        let receiveVideo = try Self.marshal(options, "offerToReceiveVideo", .boolean, required: false) as? Bool ?? true
        let (rtc, peers) = try webRtc(of: id)
        guard rtc.negotiation == .none else {
            throw .kurento(40208, "SDP_END_POINT_ALREADY_NEGOTIATED", "Endpoint already negotiated")
        }
        let base: MediaDirection = rtc.recvonly ? .recvonly : rtc.sendonly ? .sendonly : .sendrecv
        func direction(receiving: Bool) -> MediaDirection {
            guard !receiving else { return base }
            return base.sends ? .sendonly : .inactive
        }
        let media = MediaConfiguration(
            audio: .init(direction: direction(receiving: receiveAudio), codecs: [.opus]),
            video: .init(direction: direction(receiving: receiveVideo), codecs: [.vp8, .h264]),
            dataChannel: rtc.useDataChannels)
        let outcome = Self.blocking { () async -> (offer: String, connection: PeerConnection?)? in
            guard let offer = try? await peers.generateOffer(for: id, media: media) else { return nil }
            return (offer, await peers.connection(id))
        }
        // SDP_END_POINT_GENERATE_OFFER_ERROR (KEX); the message is the double's.
        guard let outcome else { throw .kurento(40204, "SDP_END_POINT_GENERATE_OFFER_ERROR", "Error generating offer") }
        state.withLock { s in negotiated(id, .offerGenerated, outcome.connection, addedCandidates: 0, in: &s) }
        return outcome.offer
    }

    /// KMS: SDP `processAnswer`: `""` → 40201 `Empty answer not valid`; a second answer → 40210; no offer generated
    /// → 40209; a bad SDP → 40201; an answer PeerManager refuses (it breaks the offer's m-lines, kinds, mids, …) →
    /// 40206 (the message is the double's). Answers the local SDP; `MediaSessionStarted` follows.
    func processAnswer(_ id: String, _ params: Any?) throws(RequestFailure) -> Any {
        let request = try Self.paramsObject(params, "operationParams", required: true)
        let answer = try Self.marshalString(request, "answer")
        guard !answer.isEmpty else { throw .kurento(40201, "SDP_PARSE_ERROR", "Empty answer not valid") }
        let (rtc, peers) = try webRtc(of: id)
        switch rtc.negotiation {
        case .offerGenerated: break
        case .answerProcessed:
            throw .kurento(40210, "SDP_END_POINT_ANSWER_ALREADY_PROCCESED", "Sdp Answer already processed")
        case .none, .offerProcessed:
            throw .kurento(40209, "SDP_END_POINT_NOT_OFFER_GENERATED",
                           "Offer not generated. It is not possible to process an answer.")
        }
        try Self.checkSDP(answer)
        let connection = Self.blocking { () async -> PeerConnection?? in
            guard (try? await peers.processAnswer(answer, for: id)) != nil else { return nil }
            return .some(await peers.connection(id))
        }
        guard let connection else {
            throw .kurento(40206, "SDP_END_POINT_PROCESS_ANSWER_ERROR", "Error processing answer")
        }
        return state.withLock { s -> String in
            negotiated(id, .answerProcessed, connection, addedCandidates: 0, in: &s)
            return connection?.localDescription?.sdp ?? ""
        }
    }

    /// KMS: SDP `getLocalSessionDescriptor` / `getRemoteSessionDescriptor`; before there is one, 40202 / 40203
    /// (SDP_END_POINT_NO_LOCAL_SDP_ERROR / …REMOTE…, KEX; the message is the double's).
    func sessionDescriptor(_ id: String, local: Bool) throws(RequestFailure) -> Any {
        let (rtc, _) = try webRtc(of: id)
        guard let sdp = local ? rtc.localSDP : rtc.remoteSDP else {
            throw local
                ? .kurento(40202, "SDP_END_POINT_NO_LOCAL_SDP_ERROR", "No local SDP")
                : .kurento(40203, "SDP_END_POINT_NO_REMOTE_SDP_ERROR", "No remote SDP")
        }
        return sdp
    }

    // MARK: Helpers

    /// KMS: SDP `str_to_sdp`: 40201 `Invalid SDP` without a `v=` line, `Error parsing SDP` when GStreamer's (lenient)
    /// parser gives up; here the SDP module's lenient parser stands in for it.
    static func checkSDP(_ sdp: String) throws(RequestFailure) {
        guard sdp.split(whereSeparator: \.isNewline).contains(where: { $0.hasPrefix("v=") }) else {
            throw .kurento(40201, "SDP_PARSE_ERROR", "Invalid SDP")
        }
        guard (try? SDPParser.parse(sdp, mode: .lenient)) != nil else {
            throw .kurento(40201, "SDP_PARSE_ERROR", "Error parsing SDP")
        }
    }

    /// The endpoint's WebRTC state and the world's PeerManager.
    func webRtc(of id: String) throws(RequestFailure) -> (WebRtc, PeerManager) {
        try state.withLock { s throws(RequestFailure) in
            guard let rtc = s.world.objects[id]?.webRtc else { throw .objectNotFound(id) }
            return (rtc, s.world.peers)
        }
    }

    /// Records a completed SDP step: the descriptions, the transports and who sends what; `MediaSessionStarted`
    /// after an offer or answer processed (SDP); the early candidates applied; the ICE check.
    private func negotiated(
        _ id: String, _ step: WebRtc.Negotiation, _ connection: PeerConnection?, addedCandidates: Int, in s: inout State
    ) {
        guard var rtc = s.world.objects[id]?.webRtc else { return }
        rtc.negotiation = step
        rtc.localSDP = connection?.localDescription?.sdp
        rtc.remoteSDP = connection?.remoteDescription?.sdp
        if step == .offerProcessed { rtc.earlyCandidates = [] }
        rtc.remoteCandidates += addedCandidates
        if let local = connection?.localDescription?.description {
            rtc.transports = Self.transports(of: local)
            if let remote = connection?.remoteDescription?.description {
                (rtc.clientSends, rtc.endpointSends) = Self.directions(local: local, remote: remote)
            }
        }
        s.world.objects[id]?.webRtc = rtc
        if step != .offerGenerated { emit("MediaSessionStarted", from: id, [:], in: &s) }
        connectIceIfReady(id, in: &s)
    }

    /// One ICE transport per BUNDLE group (on its first m-line) and per accepted m-line outside a group, as
    /// RoomServer's `SimulatedMediaBackend.candidates(for:)` does.
    static func transports(of local: SessionDescription) -> [Transport] {
        let bundled = Set(local.bundleGroups.flatMap(\.mids))
        let tagged = Set(local.bundleGroups.compactMap(\.mids.first))
        return local.media.indices.compactMap { index -> Transport? in
            let section = local.media[index]
            guard section.port != 0, let ufrag = local.effectiveIceUfrag(ofMediaAt: index) else { return nil }
            if let mid = section.mid, bundled.contains(mid), !tagged.contains(mid) { return nil }
            return Transport(mid: section.mid ?? "", index: index, ufrag: ufrag)
        }
    }

    /// The kinds (AUDIO / VIDEO) the client sends and the endpoint receives, and those the endpoint sends and the
    /// client receives, from the negotiated m-lines.
    static func directions(local: SessionDescription, remote: SessionDescription) -> (Set<String>, Set<String>) {
        var clientSends: Set<String> = []
        var endpointSends: Set<String> = []
        for index in local.media.indices where index < remote.media.count {
            guard local.media[index].port != 0, !remote.media[index].isRejected else { continue }
            let kind = local.media[index].kind.uppercased()
            guard flowKinds.contains(kind) else { continue }
            let mine = local.effectiveDirection(ofMediaAt: index)
            let theirs = remote.effectiveDirection(ofMediaAt: index)
            if mine.receives, theirs.sends { clientSends.insert(kind) }
            if mine.sends, theirs.receives { endpointSends.insert(kind) }
        }
        return (clientSends, endpointSends)
    }

    /// The double's fault ``corruptNextAnswer()``: the answer loses its last m-line, which breaks RFC 3264 §6 (an
    /// answer has as many m-lines as the offer).
    static func corrupted(_ answer: String) -> String {
        guard var description = try? SessionDescription(parsing: answer), !description.media.isEmpty else { return answer }
        description.media.removeLast()
        return description.serialized()
    }

    /// Runs `body` on the cooperative pool and blocks the calling thread until it returns. Only the double's own
    /// threads call it (never a task of the pool), so PeerManager's actor always has a thread to run on.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let result = LockedValue<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        guard let value = (result.withLock { $0 }) else { preconditionFailure("the task ended without a value") }
        return value
    }
}

extension KurentoMediaServerDouble.IceCandidateValue {
    /// The candidate as PeerManager takes it (an empty `sdpMid` means none: `sdpMLineIndex` picks the m-line).
    var value: IceCandidate {
        IceCandidate(candidate: candidate, sdpMid: sdpMid.isEmpty ? nil : sdpMid, sdpMLineIndex: sdpMLineIndex)
    }
}
