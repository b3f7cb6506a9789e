import SDP

/// setLocalDescription / setRemoteDescription (docs/sdp-jsep.md#operations).
extension PeerConnection {
    /// Applies a local description. An empty `sdp` reuses the last created offer or answer (W3C implicit
    /// SLD); a non-empty one must equal it.
    /// - Returns: the events, in order.
    public mutating func setLocalDescription(_ type: DescriptionType, sdp: String = "") throws(PeerConnectionError) -> [PeerConnectionEvent] {
        try requireOpen()
        guard case .moveTo(let next) = SignalingTransition.of(.local, type, in: signalingState) else {
            throw .invalidState(operation: "setLocalDescription(\(type.rawValue))", state: signalingState)
        }
        var events: [PeerConnectionEvent] = []
        if type == .rollback {
            rollback(events: &events)
            return events
        }
        let created = type == .offer ? lastCreatedOffer : lastCreatedAnswer
        guard let created else {
            throw .invalidModification("no \(type == .offer ? "offer" : "answer") was created")
        }
        guard sdp.isEmpty || sdp == created else {
            throw .invalidModification("the SDP differs from the last created \(type == .offer ? "offer" : "answer")")
        }
        let description = try Self.parse(created)
        if type != .offer, let offer = remoteDescription?.description {
            try Self.requireMatchingSections(answer: description, offer: offer)
        }
        let applied = AppliedDescription(type: type, description: description)
        switch type {
        case .offer, .pranswer:
            pendingLocalDescription = applied
        case .answer:
            currentLocalDescription = applied
            currentRemoteDescription = pendingRemoteDescription
            pendingLocalDescription = nil
            pendingRemoteDescription = nil
            lastCreatedOffer = nil
            lastCreatedAnswer = nil
        case .rollback:
            break
        }
        if type == .offer, iceRole == nil { iceRole = .controlling }
        move(to: next, events: &events)
        surfaceEarlyCandidates(events: &events)
        return events
    }

    /// Applies a remote description. A remote offer in `have-local-offer` is glare: with the default policy
    /// the local offer is rolled back first and ``PeerConnectionEvent/implicitRollback`` is reported.
    /// - Returns: the events, in order.
    public mutating func setRemoteDescription(_ type: DescriptionType, sdp: String) throws(PeerConnectionError) -> [PeerConnectionEvent] {
        try requireOpen()
        var events: [PeerConnectionEvent] = []
        let next: SignalingState
        switch SignalingTransition.of(.remote, type, in: signalingState) {
        case .invalidState:
            throw .invalidState(operation: "setRemoteDescription(\(type.rawValue))", state: signalingState)
        case .glare:
            guard configuration.glarePolicy == .implicitRollback else {
                throw .invalidState(operation: "setRemoteDescription(offer) during glare", state: signalingState)
            }
            // Parse before rolling back: a syntax error must leave the local offer in place.
            let description = try Self.parse(sdp)
            try Self.requireTransportParameters(description)
            try Self.requireUniqueMids(description)
            events.append(.implicitRollback)
            rollback(events: &events)
            return try applyRemote(.offer, description, next: .haveRemoteOffer, events: events)
        case .moveTo(let state):
            next = state
        }
        if type == .rollback {
            rollback(events: &events)
            return events
        }
        let description = try Self.parse(sdp)
        try Self.requireTransportParameters(description)
        try Self.requireUniqueMids(description)
        if type != .offer, let offer = localDescription?.description {
            try Self.requireMatchingSections(answer: description, offer: offer)
        }
        return try applyRemote(type, description, next: next, events: events)
    }

    private mutating func applyRemote(
        _ type: DescriptionType, _ description: SessionDescription, next: SignalingState, events: [PeerConnectionEvent]
    ) throws(PeerConnectionError) -> [PeerConnectionEvent] {
        var events = events
        let applied = AppliedDescription(type: type, description: description)
        switch type {
        case .offer, .pranswer:
            pendingRemoteDescription = applied
        case .answer:
            currentRemoteDescription = applied
            currentLocalDescription = pendingLocalDescription
            pendingLocalDescription = nil
            pendingRemoteDescription = nil
            lastCreatedOffer = nil
            lastCreatedAnswer = nil
        case .rollback:
            break
        }
        // docs/sdp-jsep.md#descriptions: a remote offer makes us controlled, unless the offerer is ICE-lite.
        if type == .offer, iceRole == nil { iceRole = description.iceLite ? .controlling : .controlled }
        move(to: next, events: &events)
        flushQueuedCandidates(events: &events)
        return events
    }

    /// W3C rollback: drop the pending descriptions, return to `stable`, forget queued candidates of a
    /// generation that is gone.
    mutating func rollback(events: inout [PeerConnectionEvent]) {
        pendingLocalDescription = nil
        pendingRemoteDescription = nil
        move(to: .stable, events: &events)
        let known = Set(remoteDescription.map { description in
            description.description.media.indices.compactMap { description.description.effectiveIceUfrag(ofMediaAt: $0) }
        } ?? [])
        let before = queuedRemoteCandidates.count
        queuedRemoteCandidates.removeAll { candidate in candidate.usernameFragment.map { !known.contains($0) } ?? false }
        if queuedRemoteCandidates.count < before {
            events.append(.queuedCandidatesDropped(count: before - queuedRemoteCandidates.count))
        }
    }

    static func parse(_ sdp: String) throws(PeerConnectionError) -> SessionDescription {
        do {
            return try SessionDescription(parsing: sdp)
        } catch {
            throw .syntax(error)
        }
    }

    /// RFC 3264 §6: an answer has exactly the offer's m-lines, in order, with the same media types.
    static func requireMatchingSections(answer: SessionDescription, offer: SessionDescription) throws(PeerConnectionError) {
        guard answer.media.count == offer.media.count else {
            throw .invalidAccess("the answer has \(answer.media.count) m-lines, the offer \(offer.media.count)")
        }
        for (index, (a, o)) in zip(answer.media, offer.media).enumerated() where a.kind != o.kind {
            throw .invalidAccess("m-line \(index) is \(a.kind) in the answer but \(o.kind) in the offer")
        }
    }

    /// RFC 5888 §4: a mid names one m-line; an answer to a repeated one could not say which section it answers.
    static func requireUniqueMids(_ description: SessionDescription) throws(PeerConnectionError) {
        if let duplicate = description.duplicateMids.first { throw .invalidAccess("\(duplicate)") }
    }

    /// W3C step 6: every section in use needs ICE credentials (RFC 8839 §5.4).
    static func requireTransportParameters(_ description: SessionDescription) throws(PeerConnectionError) {
        for index in description.media.indices where !description.media[index].isRejected {
            guard description.effectiveIceUfrag(ofMediaAt: index) != nil, description.effectiveIcePwd(ofMediaAt: index) != nil else {
                throw .invalidAccess("m-line \(index) has no ice-ufrag/ice-pwd")
            }
        }
    }
}
