public import SDP

/// Trickle ICE: remote candidates validated, queued and flushed; local candidates surfaced as events
/// (docs/sdp-jsep.md#trickle).
extension PeerConnection {
    /// Adds a remote candidate, or end-of-candidates when its text is empty.
    ///
    /// Before any remote description the candidate is queued (W3C rejects it; signaling code must buffer,
    /// docs/sdp-jsep.md#trickle, "Queueing") and applied in arrival order once the description is set. Without a
    /// `usernameFragment`, the candidate's `ufrag` extension selects the generation, so candidates of a
    /// generation replaced by an ICE restart are rejected. An empty `sdpMid` counts as none.
    /// - Returns: the events (none for a candidate applied or queued).
    public mutating func addRemoteCandidate(_ candidate: IceCandidate) throws(PeerConnectionError) -> [PeerConnectionEvent] {
        try requireOpen()
        var candidate = candidate
        // NBMRoomClient and Kurento's clients send "sdpMid": "" for "no mid"; no section can have an empty mid, so it
        // means none, and sdpMLineIndex picks the section (docs/wire-protocol.md#stock-kurento).
        if candidate.sdpMid?.isEmpty == true { candidate.sdpMid = nil }
        // W3C step 1: TypeError before the operations chain.
        if !candidate.isEndOfCandidates, candidate.sdpMid == nil, candidate.sdpMLineIndex == nil {
            throw .candidate(.noTarget)
        }
        if candidate.usernameFragment == nil, let parsed = try? candidate.parsed(mode: .lenient) {
            candidate.usernameFragment = parsed.usernameFragment
        }
        guard remoteDescription != nil else {
            guard queuedRemoteCandidates.count < configuration.maxQueuedCandidates else {
                throw .candidateQueueFull(limit: configuration.maxQueuedCandidates)
            }
            queuedRemoteCandidates.append(candidate)
            return []
        }
        try applyRemoteCandidate(candidate)
        return []
    }

    /// Applies `candidate` to the remote description in use (pending, else current) and mirrors it into
    /// the other one when that one accepts it (W3C step 8: "pendingRemote and/or currentRemote").
    mutating func applyRemoteCandidate(_ candidate: IceCandidate) throws(PeerConnectionError) {
        do {
            if var pending = pendingRemoteDescription {
                try pending.description.apply(candidate, mode: .lenient)
                pendingRemoteDescription = pending
                if var current = currentRemoteDescription, (try? current.description.apply(candidate, mode: .lenient)) != nil {
                    currentRemoteDescription = current
                }
            } else if var current = currentRemoteDescription {
                try current.description.apply(candidate, mode: .lenient)
                currentRemoteDescription = current
            }
        } catch {
            throw .candidate(error)
        }
    }

    /// Applies the queued candidates in order after a remote description was set. Candidates that no longer
    /// fit (unknown mid, old ufrag) are dropped and counted, not raised: the description itself succeeded.
    mutating func flushQueuedCandidates(events: inout [PeerConnectionEvent]) {
        guard !queuedRemoteCandidates.isEmpty else { return }
        let queued = queuedRemoteCandidates
        queuedRemoteCandidates.removeAll()
        var applied = 0
        for candidate in queued where (try? applyRemoteCandidate(candidate)) != nil { applied += 1 }
        if applied > 0 { events.append(.queuedCandidatesApplied(count: applied)) }
        if applied < queued.count { events.append(.queuedCandidatesDropped(count: queued.count - applied)) }
    }

    /// Reports a candidate gathered by the application's media engine (empty text: gathering of this
    /// generation finished). It is added to the local description and returned as an event ready to
    /// signal; before any local description it is held and surfaced after the next one (W3C
    /// `[[EarlyCandidates]]`).
    public mutating func addLocalCandidate(_ candidate: IceCandidate) throws(PeerConnectionError) -> [PeerConnectionEvent] {
        try requireOpen()
        guard localDescription != nil else {
            earlyLocalCandidates.append(candidate)
            return []
        }
        var events: [PeerConnectionEvent] = []
        try applyLocalCandidate(candidate, events: &events)
        return events
    }

    mutating func applyLocalCandidate(_ candidate: IceCandidate, events: inout [PeerConnectionEvent]) throws(PeerConnectionError) {
        var candidate = candidate
        do {
            if var pending = pendingLocalDescription {
                try pending.description.apply(candidate)
                pendingLocalDescription = pending
                if let index = try pending.description.targetIndex(of: candidate) {
                    candidate.sdpMid = candidate.sdpMid ?? pending.description.media[index].mid
                    candidate.sdpMLineIndex = index
                }
            } else if var current = currentLocalDescription {
                try current.description.apply(candidate)
                currentLocalDescription = current
                if let index = try current.description.targetIndex(of: candidate) {
                    candidate.sdpMid = candidate.sdpMid ?? current.description.media[index].mid
                    candidate.sdpMLineIndex = index
                }
            }
        } catch {
            throw .candidate(error)
        }
        events.append(.localCandidate(candidate))
    }

    /// Surfaces the early local candidates once a local description exists.
    mutating func surfaceEarlyCandidates(events: inout [PeerConnectionEvent]) {
        guard !earlyLocalCandidates.isEmpty, localDescription != nil else { return }
        let early = earlyLocalCandidates
        earlyLocalCandidates.removeAll()
        for candidate in early { try? applyLocalCandidate(candidate, events: &events) }
    }
}
