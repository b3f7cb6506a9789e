import JSONRPC

/// A WebRTC endpoint (`WebRtcEndpoint`): one peer connection of KMS, negotiated with SDP offers and answers and
/// ICE candidates trickled both ways (Kurento/kurento
/// `server/module-elements/src/server/interface/elements.WebRtcEndpoint.kmd.json`).
///
/// The usual order for a client's offer: subscribe to ``IceCandidateFound``, ``processOffer(_:timeout:)``, then
/// ``gatherCandidates(timeout:)`` (gathering before an offer or answer was processed succeeds and finds nothing),
/// and ``addIceCandidate(_:timeout:)`` for each of the client's candidates. KMS negotiates an endpoint once: a
/// second offer is refused with 40208.
public struct WebRtcEndpoint: MediaElement, Hashable {
    /// The KMS type name.
    public static let typeName = "WebRtcEndpoint"

    public let id: String
    public let client: KurentoClient

    /// The endpoint with KMS id `id` on `client`'s KMS (one another process may have created).
    public init(id: String, client: KurentoClient) {
        self.id = id
        self.client = client
    }

    /// Processes the remote peer's SDP offer and returns KMS's answer.
    public func processOffer(_ offer: String, timeout: Duration? = nil) async throws(KurentoError) -> String {
        try Self.sdp(await invoke("processOffer", ["offer": .string(offer)], timeout: timeout), "processOffer")
    }

    /// `processOffer` as a call of ``KurentoClient/send(_:timeout:)``.
    public func processOfferCall(_ offer: String) -> KurentoCall {
        .invoke(self, "processOffer", ["offer": .string(offer)])
    }

    /// Makes KMS's SDP offer (to send to the remote peer, whose answer goes to ``processAnswer(_:timeout:)``).
    public func generateOffer(offerToReceiveAudio: Bool? = nil, offerToReceiveVideo: Bool? = nil,
                              timeout: Duration? = nil) async throws(KurentoError) -> String {
        var options: [String: JSONValue] = [:]
        if let offerToReceiveAudio { options["offerToReceiveAudio"] = .bool(offerToReceiveAudio) }
        if let offerToReceiveVideo { options["offerToReceiveVideo"] = .bool(offerToReceiveVideo) }
        let params: [String: JSONValue]? = options.isEmpty ? nil : ["options": .object(options)]
        return try Self.sdp(await invoke("generateOffer", params, timeout: timeout), "generateOffer")
    }

    /// Processes the remote peer's answer to ``generateOffer(offerToReceiveAudio:offerToReceiveVideo:timeout:)``;
    /// returns KMS's local description.
    @discardableResult
    public func processAnswer(_ answer: String, timeout: Duration? = nil) async throws(KurentoError) -> String {
        try Self.sdp(await invoke("processAnswer", ["answer": .string(answer)], timeout: timeout), "processAnswer")
    }

    /// Starts gathering KMS's candidates, raised as ``IceCandidateFound`` events and then ``IceGatheringDone``.
    public func gatherCandidates(timeout: Duration? = nil) async throws(KurentoError) {
        try await invoke("gatherCandidates", timeout: timeout)
    }

    /// `gatherCandidates` as a call of ``KurentoClient/send(_:timeout:)``.
    public func gatherCandidatesCall() -> KurentoCall { .invoke(self, "gatherCandidates") }

    /// Adds one of the remote peer's candidates.
    public func addIceCandidate(_ candidate: IceCandidate, timeout: Duration? = nil) async throws(KurentoError) {
        try await invoke("addIceCandidate", ["candidate": candidate.json], timeout: timeout)
    }

    /// Caps the video bitrate KMS sends, in kbps (`setMaxVideoSendBandwidth`; 0 is unlimited).
    public func setMaxVideoSendBandwidth(_ kbps: Int, timeout: Duration? = nil) async throws(KurentoError) {
        try await invoke("setMaxVideoSendBandwidth", ["maxVideoSendBandwidth": .int(kbps)], timeout: timeout)
    }

    /// Sets the least video bitrate KMS sends, in kbps (`setMinVideoSendBandwidth`).
    public func setMinVideoSendBandwidth(_ kbps: Int, timeout: Duration? = nil) async throws(KurentoError) {
        try await invoke("setMinVideoSendBandwidth", ["minVideoSendBandwidth": .int(kbps)], timeout: timeout)
    }

    /// Caps the video bitrate KMS asks the remote peer to send, in kbps (`setMaxVideoRecvBandwidth`).
    public func setMaxVideoRecvBandwidth(_ kbps: Int, timeout: Duration? = nil) async throws(KurentoError) {
        try await invoke("setMaxVideoRecvBandwidth", ["maxVideoRecvBandwidth": .int(kbps)], timeout: timeout)
    }

    /// Whether the endpoint's media is up (`getMediaState`).
    public func mediaState(timeout: Duration? = nil) async throws(KurentoError) -> MediaConnectionState? {
        try await invoke("getMediaState", timeout: timeout).stringValue.flatMap(MediaConnectionState.init(rawValue:))
    }

    /// An SDP string from an operation's value.
    static func sdp(_ value: JSONValue, _ operation: String) throws(KurentoError) -> String {
        guard let sdp = value.stringValue, !sdp.isEmpty else {
            throw KurentoError.invalidResponse("'\(operation)' answered \(value.redactingSessionIds.jsonText.prefix(200)), not an SDP")
        }
        return sdp
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id && lhs.client === rhs.client }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

extension KurentoClient {
    /// The pipeline with KMS id `id` on this client's KMS.
    public func mediaPipeline(id: String) -> MediaPipeline { MediaPipeline(id: id, client: self) }

    /// The WebRTC endpoint with KMS id `id` on this client's KMS.
    public func webRtcEndpoint(id: String) -> WebRtcEndpoint { WebRtcEndpoint(id: id, client: self) }
}
