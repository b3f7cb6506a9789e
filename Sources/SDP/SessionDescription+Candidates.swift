/// Applying a trickled ``IceCandidate`` to a description, following the W3C addIceCandidate rules
/// (docs/sdp-jsep.md#trickle, steps 1, 3, 5, 6, 7 and 8).
extension SessionDescription {
    /// Why a trickled candidate could not be applied.
    public enum CandidateTargetError: Error, Hashable, Sendable, CustomStringConvertible {
        /// A non-empty candidate with neither sdpMid nor sdpMLineIndex (W3C: TypeError).
        case noTarget
        /// sdpMid names no section, or sdpMLineIndex is out of range (W3C: OperationError).
        case noSuchSection(sdpMid: String?, sdpMLineIndex: Int?)
        /// usernameFragment matches no ufrag of the section (W3C: OperationError).
        case unknownUsernameFragment(String)
        /// The candidate line does not parse (W3C: OperationError).
        case invalidCandidate(CandidateParseError)

        /// A readable reason.
        public var description: String {
            switch self {
            case .noTarget: "candidate has neither sdpMid nor sdpMLineIndex"
            case .noSuchSection(let mid, let index):
                "no media section with mid \(mid ?? "nil") or index \(index.map(String.init) ?? "nil")"
            case .unknownUsernameFragment(let ufrag): "usernameFragment '\(ufrag)' matches no ice-ufrag"
            case .invalidCandidate(let error): "invalid candidate: \(error.reason)"
            }
        }
    }

    /// The section index `candidate` targets: `sdpMid` wins, an invalid `sdpMLineIndex` is ignored when the
    /// mid is valid (W3C step 3). `nil` when both are `nil`.
    public func targetIndex(of candidate: IceCandidate) throws(CandidateTargetError) -> Int? {
        if let mid = candidate.sdpMid {
            guard let index = mediaIndex(forMid: mid) else {
                throw .noSuchSection(sdpMid: mid, sdpMLineIndex: candidate.sdpMLineIndex)
            }
            return index
        }
        guard let index = candidate.sdpMLineIndex else { return nil }
        guard media.indices.contains(index) else { throw .noSuchSection(sdpMid: nil, sdpMLineIndex: index) }
        return index
    }

    /// Appends the candidate's `a=candidate` line (or `a=end-of-candidates`) to the section it targets.
    /// An end-of-candidates marker without a target marks every section (W3C step 7).
    public mutating func apply(_ candidate: IceCandidate, mode: ParseMode = .strict) throws(CandidateTargetError) {
        guard let index = try targetIndex(of: candidate) else {
            guard candidate.isEndOfCandidates else { throw .noTarget }
            for i in media.indices { media[i].endOfCandidates = true }
            return
        }
        if let ufrag = candidate.usernameFragment, effectiveIceUfrag(ofMediaAt: index) != ufrag {
            throw .unknownUsernameFragment(ufrag)
        }
        if candidate.isEndOfCandidates {
            media[index].endOfCandidates = true
            return
        }
        do {
            if let parsed = try candidate.parsed(mode: mode) { media[index].addCandidate(parsed) }
        } catch {
            throw .invalidCandidate(error)
        }
    }

    /// Every candidate of the description as trickle values, in section order.
    public var iceCandidates: [IceCandidate] {
        media.indices.flatMap { index in
            media[index].candidates.map {
                IceCandidate($0, sdpMid: media[index].mid, sdpMLineIndex: index,
                             usernameFragment: effectiveIceUfrag(ofMediaAt: index))
            }
        }
    }
}
