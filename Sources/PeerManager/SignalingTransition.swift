/// The transition table of docs/sdp-jsep.md#transitions, as a pure function of the state and the call.
///
/// W3C behaviour is the default where JSEP differs: rollback is illegal in `stable` and in both pranswer
/// states (webrtc-pc issue #2235), and a remote offer in `have-local-offer` is glare, resolved by an implicit
/// rollback (perfect negotiation) unless the caller's policy rejects it.
public enum SignalingTransition: Hashable, Sendable {
    /// The call is legal and ends in this state.
    case moveTo(SignalingState)
    /// The call is illegal in this state (W3C `InvalidStateError`); nothing changes.
    case invalidState
    /// A remote offer in `have-local-offer`: roll the local offer back, then apply the remote offer.
    case glare

    /// The outcome of applying a description of `type` on `side` in `state`.
    public static func of(_ side: DescriptionSide, _ type: DescriptionType, in state: SignalingState) -> SignalingTransition {
        switch (state, side, type) {
        case (.closed, _, _):
            return .invalidState
        // JSEP §5.5/§5.6: local offer in stable or have-local-offer (re-offer).
        case (.stable, .local, .offer), (.haveLocalOffer, .local, .offer):
            return .moveTo(.haveLocalOffer)
        case (.haveRemoteOffer, .local, .pranswer), (.haveLocalPranswer, .local, .pranswer):
            return .moveTo(.haveLocalPranswer)
        case (.haveRemoteOffer, .local, .answer), (.haveLocalPranswer, .local, .answer):
            return .moveTo(.stable)
        case (.stable, .remote, .offer), (.haveRemoteOffer, .remote, .offer):
            return .moveTo(.haveRemoteOffer)
        case (.haveLocalOffer, .remote, .offer):
            return .glare
        case (.haveLocalOffer, .remote, .pranswer), (.haveRemotePranswer, .remote, .pranswer):
            return .moveTo(.haveRemotePranswer)
        case (.haveLocalOffer, .remote, .answer), (.haveRemotePranswer, .remote, .answer):
            return .moveTo(.stable)
        // W3C: rollback only from the two offer states, through either side.
        case (.haveLocalOffer, _, .rollback), (.haveRemoteOffer, _, .rollback):
            return .moveTo(.stable)
        default:
            return .invalidState
        }
    }
}
