public import SDP

/// What the registry reports, per connection id, in the order it happened.
public enum PeerManagerEvent: Hashable, Sendable {
    /// A local offer was generated and applied; send `sdp` to the peer.
    case offerGenerated(id: String, sdp: String)
    /// A remote offer was answered; send `sdp` to the peer.
    case answerGenerated(id: String, sdp: String)
    /// A local candidate to signal (empty text: end-of-candidates).
    case localCandidate(id: String, candidate: IceCandidate)
    /// The connection's signaling state changed.
    case signalingStateChanged(id: String, state: SignalingState)
    /// Glare was resolved by rolling the local offer back.
    case implicitRollback(id: String)
    /// The connection was closed and forgotten.
    case connectionClosed(id: String)
}

/// Why a registry operation failed.
public enum PeerManagerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No connection has this id.
    case unknownConnection(String)
    /// The connection refused the operation.
    case connection(id: String, PeerConnectionError)
    /// An event subscriber fell behind by more than its buffer; its sequence ended.
    case subscriberOverflow(limit: Int)
    /// The remote answer breaks the rules named (``PeerManager/enforcedAnswerRules``); it was not applied, and the
    /// connection still waits for a usable answer to its offer.
    case invalidAnswer(id: String, [AnswerViolation])

    /// A readable reason.
    public var description: String {
        switch self {
        case .unknownConnection(let id): "no connection '\(id)'"
        case .connection(let id, let error): "connection '\(id)': \(error)"
        case .subscriberOverflow(let limit): "event subscriber fell more than \(limit) events behind"
        case .invalidAnswer(let id, let violations):
            "connection '\(id)': the answer breaks \(violations.map(\.description).joined(separator: "; "))"
        }
    }
}
