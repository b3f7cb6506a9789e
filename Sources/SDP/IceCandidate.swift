/// A trickled ICE candidate as signaled, the counterpart of W3C `RTCIceCandidateInit` (docs/sdp-jsep.md#trickle-json).
///
/// `candidate` is the attribute without `a=` and with `candidate:`; an empty string means
/// end-of-candidates for the section (or, with neither `sdpMid` nor `sdpMLineIndex`, for all sections).
public struct IceCandidate: Hashable, Sendable, Codable {
    /// `candidate:…`, or `""` for end-of-candidates.
    public var candidate: String
    /// The `a=mid` of the target section; wins over ``sdpMLineIndex`` when both are given.
    public var sdpMid: String?
    /// The 0-based index of the target section.
    public var sdpMLineIndex: Int?
    /// The `a=ice-ufrag` of the ICE generation the candidate belongs to; `nil` means the latest.
    public var usernameFragment: String?

    /// A candidate as received.
    public init(candidate: String, sdpMid: String? = nil, sdpMLineIndex: Int? = nil, usernameFragment: String? = nil) {
        self.candidate = candidate
        self.sdpMid = sdpMid
        self.sdpMLineIndex = sdpMLineIndex
        self.usernameFragment = usernameFragment
    }

    /// A candidate carrying `attribute`, with its `ufrag` extension as the default username fragment.
    public init(_ attribute: CandidateAttribute, sdpMid: String?, sdpMLineIndex: Int?, usernameFragment: String? = nil) {
        self.init(
            candidate: attribute.description, sdpMid: sdpMid, sdpMLineIndex: sdpMLineIndex,
            usernameFragment: usernameFragment ?? attribute.usernameFragment)
    }

    /// An end-of-candidates marker for one section, or for all when both targets are `nil`.
    public static func endOfCandidates(sdpMid: String? = nil, sdpMLineIndex: Int? = nil, usernameFragment: String? = nil) -> IceCandidate {
        IceCandidate(candidate: "", sdpMid: sdpMid, sdpMLineIndex: sdpMLineIndex, usernameFragment: usernameFragment)
    }

    /// `true` when ``candidate`` is empty (RFC 8840 §8.2, W3C addIceCandidate step 7).
    public var isEndOfCandidates: Bool { candidate.isEmpty }

    /// The parsed candidate line; `nil` for end-of-candidates.
    public func parsed(mode: ParseMode = .strict) throws(CandidateParseError) -> CandidateAttribute? {
        isEndOfCandidates ? nil : try CandidateAttribute(parsing: candidate, mode: mode)
    }
}
