/// The W3C `RTCSignalingState` (docs/sdp-jsep.md#states).
public enum SignalingState: String, Hashable, Sendable, Codable, CaseIterable {
    /// No negotiation in progress; the initial state.
    case stable
    /// A local offer is applied and waits for an answer.
    case haveLocalOffer = "have-local-offer"
    /// A remote offer is applied and waits for a local answer.
    case haveRemoteOffer = "have-remote-offer"
    /// A local provisional answer is applied.
    case haveLocalPranswer = "have-local-pranswer"
    /// A remote provisional answer is applied.
    case haveRemotePranswer = "have-remote-pranswer"
    /// `close()` was called; every further operation fails.
    case closed
}

/// The W3C `RTCSdpType`.
public enum DescriptionType: String, Hashable, Sendable, Codable, CaseIterable {
    /// An offer.
    case offer
    /// A provisional answer.
    case pranswer
    /// A final answer.
    case answer
    /// Undo the pending offer (its SDP is ignored).
    case rollback
}

/// Which side a description is applied to.
public enum DescriptionSide: String, Hashable, Sendable, Codable, CaseIterable {
    /// `setLocalDescription`.
    case local
    /// `setRemoteDescription`.
    case remote
}
