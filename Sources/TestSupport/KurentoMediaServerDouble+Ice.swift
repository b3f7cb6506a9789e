import Foundation
import SignalingSupport
import PeerManager
import SDP

extension KurentoMediaServerDouble {
    /// KMS: WRTC `gatherCandidates` → `value: null`. Before the endpoint has a local description its ICE
    /// connections do not exist yet (kmsbasertpendpoint.c creates them while processing SDP), so nothing is gathered,
    /// then or later (the inference the double fixes). After: one `IceCandidateFound` per transport, then
    /// `IceGatheringDone`; gathering happens once per endpoint.
    func gatherCandidates(_ id: String, _ params: Any?) throws(RequestFailure) -> Any {
        _ = try Self.paramsObject(params, "operationParams", required: false)
        try state.withLock { s throws(RequestFailure) in
            guard var rtc = s.world.objects[id]?.webRtc else { throw .objectNotFound(id) }
            guard rtc.hasLocalDescription, !rtc.gathered else { return }
            rtc.gathered = true
            s.world.objects[id]?.webRtc = rtc
            for transport in rtc.transports {
                // RFC 8445 §5.1.2.1: host type preference 126, local preference 65535, component 1.
                let host = CandidateAttribute(
                    foundation: "1", priority: 2_130_706_431, address: configuration.candidateAddress,
                    port: s.world.nextCandidatePort, type: .host,
                    extensions: [.init(name: "generation", value: "0"), .init(name: "ufrag", value: transport.ufrag)])
                s.world.nextCandidatePort += 1
                // KMS: WRTC-KMD7 IceCandidateFound: `candidate` is an IceCandidate, tagged `__module__` / `__type__`
                // as KMS tags complex values (WIRE-145); `sdpMLineIndex` is an int.
                emit("IceCandidateFound", from: id, [
                    "candidate": [
                        "__module__": "kurento", "__type__": "IceCandidate", "candidate": host.description,
                        "sdpMid": transport.mid, "sdpMLineIndex": transport.index,
                    ] as [String: Any],
                ], in: &s)
            }
            emit("IceGatheringDone", from: id, [:], in: &s)
        }
        return NSNull()
    }

    /// KMS: WRTC `addIceCandidate {candidate: {candidate, sdpMid, sdpMLineIndex}}` → `value: null`; `__module__` /
    /// `__type__` are optional on input (the generated reader only checks the listed members). An empty
    /// `candidate` is end-of-candidates and silently accepted. Before any description the candidate is kept and
    /// applied with the offer; otherwise PeerManager validates it against the remote description, and one it
    /// refuses (unknown mid or index, another ICE generation's ufrag) → 40401 `Error adding candidate`.
    func addIceCandidate(_ id: String, _ params: Any?) throws(RequestFailure) -> Any {
        let request = try Self.paramsObject(params, "operationParams", required: true)
        let object = try Self.marshal(request, "candidate", .object, required: true) as? [String: Any] ?? [:]
        let candidate = IceCandidateValue(
            candidate: try Self.marshalString(object, "candidate"), sdpMid: try Self.marshalString(object, "sdpMid"),
            sdpMLineIndex: try Self.marshal(object, "sdpMLineIndex", .integer, required: true) as? Int ?? 0)
        guard !candidate.candidate.isEmpty else { return NSNull() }
        let (rtc, peers) = try webRtc(of: id)
        if rtc.negotiation == .none {
            state.withLock { $0.world.objects[id]?.webRtc?.earlyCandidates.append(candidate) }
            return NSNull()
        }
        let accepted = Self.blocking { (try? await peers.addICECandidate(candidate.value, for: id)) != nil }
        guard accepted else { throw .kurento(40401, "ICE_ADD_CANDIDATE_ERROR", "Error adding candidate") }
        state.withLock { s in
            s.world.objects[id]?.webRtc?.remoteCandidates += 1
            connectIceIfReady(id, in: &s)
        }
        return NSNull()
    }

    /// The simulated ICE connection (the class comment's model): once negotiated with at least one remote
    /// candidate, `IceComponentStateChanged` CONNECTED per transport (`streamId` from 1, `componentId` 1),
    /// `ConnectionStateChanged` and `MediaStateChanged` DISCONNECTED → CONNECTED, then media flows.
    func connectIceIfReady(_ id: String, in s: inout State) {
        guard let rtc = s.world.objects[id]?.webRtc, rtc.isNegotiated, rtc.remoteCandidates > 0, !rtc.iceConnected
        else { return }
        s.world.objects[id]?.webRtc?.iceConnected = true
        s.world.anEndpointConnected = true
        for stream in rtc.transports.indices {
            emit("IceComponentStateChanged", from: id, ["streamId": stream + 1, "componentId": 1, "state": "CONNECTED"],
                 in: &s)
        }
        emit("ConnectionStateChanged", from: id, ["oldState": "DISCONNECTED", "newState": "CONNECTED"], in: &s)
        emit("MediaStateChanged", from: id, ["oldState": "DISCONNECTED", "newState": "CONNECTED"], in: &s)
        updateMediaFlow(in: &s)
    }
}
