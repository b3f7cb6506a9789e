public import SDP

/// Why a peer-connection operation failed (docs/sdp-jsep.md#apply-errors, "errors raised while applying a
/// description").
public enum PeerConnectionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The connection is closed (W3C: the promise never settles; here the call fails at once).
    case closed
    /// The operation is illegal in the current signaling state (W3C `InvalidStateError`).
    case invalidState(operation: String, state: SignalingState)
    /// A local description differs from the last created offer or answer (W3C `InvalidModificationError`).
    case invalidModification(String)
    /// The SDP does not parse (W3C `RTCError` "sdp-syntax-error" with `sdpLineNumber`).
    case syntax(SDPParseError)
    /// The description parses but breaks a negotiation rule (W3C `InvalidAccessError`).
    case invalidAccess(String)
    /// A candidate could not be applied (W3C `OperationError`, or `TypeError` for a missing target).
    case candidate(SessionDescription.CandidateTargetError)
    /// The queue of early remote candidates is full.
    case candidateQueueFull(limit: Int)

    /// A reason a developer can act on.
    public var description: String {
        switch self {
        case .closed: "the connection is closed"
        case .invalidState(let operation, let state): "\(operation) is not allowed in state \(state.rawValue)"
        case .invalidModification(let reason): "invalid modification: \(reason)"
        case .syntax(let error): "sdp syntax error: \(error)"
        case .invalidAccess(let reason): "invalid description: \(reason)"
        case .candidate(let error): "cannot add candidate: \(error)"
        case .candidateQueueFull(let limit): "more than \(limit) remote candidates queued before the remote description"
        }
    }
}
