public import SDP

/// One peer connection's JSEP signaling state machine: a synchronous, deterministic value type.
///
/// It follows the W3C rules of docs/sdp-jsep.md#signaling: the transition table (``SignalingTransition``), the error
/// order (closed, state, modification, syntax, content), pending and current descriptions
/// (docs/sdp-jsep.md#descriptions), rollback, and glare handled by implicit rollback unless
/// ``Configuration/glarePolicy`` rejects it. Each mutating call returns the events it produced, in order; nothing is
/// fired behind the caller's back.
public struct PeerConnection: Hashable, Sendable {
    /// What to do with a remote offer received in `have-local-offer`.
    public enum GlarePolicy: Hashable, Sendable {
        /// Fail with `invalidState`, as aiortc, pion and older browsers do.
        case reject
        /// W3C perfect negotiation: roll the local offer back, then apply the remote offer (default).
        case implicitRollback
    }

    /// Per-connection settings.
    public struct Configuration: Hashable, Sendable {
        /// Glare handling; implicit rollback by default.
        public var glarePolicy: GlarePolicy
        /// How many remote candidates may wait for the remote description (docs/wire-protocol.md#limits).
        public var maxQueuedCandidates: Int

        /// Settings with the defaults.
        public init(glarePolicy: GlarePolicy = .implicitRollback, maxQueuedCandidates: Int = 200) {
            self.glarePolicy = glarePolicy
            self.maxQueuedCandidates = maxQueuedCandidates
        }
    }

    /// The settings.
    public var configuration: Configuration
    /// The current signaling state.
    public internal(set) var signalingState: SignalingState = .stable
    /// The local offer or pranswer being negotiated.
    public internal(set) var pendingLocalDescription: AppliedDescription?
    /// The local description of the last completed negotiation.
    public internal(set) var currentLocalDescription: AppliedDescription?
    /// The remote offer or pranswer being negotiated.
    public internal(set) var pendingRemoteDescription: AppliedDescription?
    /// The remote description of the last completed negotiation.
    public internal(set) var currentRemoteDescription: AppliedDescription?
    /// The ICE role, fixed by the first offer applied (docs/sdp-jsep.md#descriptions).
    public internal(set) var iceRole: IceRole?
    /// The text of the last offer given to ``createOffer(_:)`` (W3C `[[LastCreatedOffer]]`).
    public internal(set) var lastCreatedOffer: String?
    /// The text of the last answer given to ``createAnswer(_:)`` (W3C `[[LastCreatedAnswer]]`).
    public internal(set) var lastCreatedAnswer: String?
    /// Remote candidates that arrived before any remote description, in arrival order.
    public internal(set) var queuedRemoteCandidates: [IceCandidate] = []
    /// Local candidates reported before any local description (W3C `[[EarlyCandidates]]`).
    public internal(set) var earlyLocalCandidates: [IceCandidate] = []

    /// A new connection in `stable`.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// `pendingLocal ?? currentLocal`.
    public var localDescription: AppliedDescription? { pendingLocalDescription ?? currentLocalDescription }
    /// `pendingRemote ?? currentRemote`.
    public var remoteDescription: AppliedDescription? { pendingRemoteDescription ?? currentRemoteDescription }

    /// Records `offer` as the last created offer and returns its text. Legal in `stable` and
    /// `have-local-offer` only (W3C createOffer).
    public mutating func createOffer(_ offer: SessionDescription) throws(PeerConnectionError) -> String {
        try requireOpen()
        guard signalingState == .stable || signalingState == .haveLocalOffer else {
            throw .invalidState(operation: "createOffer", state: signalingState)
        }
        let text = offer.serialized()
        lastCreatedOffer = text
        return text
    }

    /// Records `answer` as the last created answer and returns its text. Legal in `have-remote-offer` and
    /// `have-local-pranswer` only (W3C createAnswer).
    public mutating func createAnswer(_ answer: SessionDescription) throws(PeerConnectionError) -> String {
        try requireOpen()
        guard signalingState == .haveRemoteOffer || signalingState == .haveLocalPranswer else {
            throw .invalidState(operation: "createAnswer", state: signalingState)
        }
        let text = answer.serialized()
        lastCreatedAnswer = text
        return text
    }

    /// Closes the connection. W3C: setting `closed` fires no event, so none is returned.
    public mutating func close() {
        signalingState = .closed
        queuedRemoteCandidates.removeAll()
        earlyLocalCandidates.removeAll()
    }

    func requireOpen() throws(PeerConnectionError) {
        if signalingState == .closed { throw .closed }
    }

    /// Moves to `state`, reporting the change only when the value changes (W3C).
    mutating func move(to state: SignalingState, events: inout [PeerConnectionEvent]) {
        guard state != signalingState else { return }
        signalingState = state
        events.append(.signalingStateChanged(state))
    }
}

extension PeerConnection {
    /// The local and remote descriptions of the last completed negotiation, once there was one.
    public var currentDescriptions: (local: SessionDescription, remote: SessionDescription)? {
        guard let local = currentLocalDescription, let remote = currentRemoteDescription else { return nil }
        return (local.description, remote.description)
    }
}
