public import SDP

/// What a peer-connection operation produced, in order, for the application to signal or observe.
public enum PeerConnectionEvent: Hashable, Sendable {
    /// The signaling state changed (W3C `signalingstatechange`; never fired for `closed`).
    case signalingStateChanged(SignalingState)
    /// A remote offer arrived in `have-local-offer` and the local offer was rolled back first (glare).
    case implicitRollback
    /// A local candidate (or, with empty text, end-of-candidates) ready to be sent to the peer.
    case localCandidate(IceCandidate)
    /// Queued remote candidates were applied after the remote description was set.
    case queuedCandidatesApplied(count: Int)
    /// Queued remote candidates were dropped because their ICE generation is gone.
    case queuedCandidatesDropped(count: Int)
}
