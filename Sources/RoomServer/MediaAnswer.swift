/// What a ``MediaBackend`` returns for an offer: the SDP answer and the endpoint's server ICE candidates, which the
/// server trickles to the endpoint's owner as `iceCandidate` notifications.
public struct MediaAnswer: Sendable, Hashable {
    /// The SDP answer.
    public var sdp: String
    /// The endpoint's server candidates.
    public var candidates: [MediaCandidate]

    /// Creates an answer.
    public init(sdp: String, candidates: [MediaCandidate] = []) {
        self.sdp = sdp
        self.candidates = candidates
    }
}
