public import SDP

/// Renegotiation, provisional answers, rollback and direction changes (docs/sdp-jsep.md#renegotiation).
extension PeerManager {
    /// A subsequent offer for the session in force on `id`, with the directions set by
    /// ``setDirection(_:forMid:of:)`` and, after ``restartIce(for:)``, new ICE credentials; applied locally and returned.
    /// - Throws: ``PeerManagerError/connection(id:_:)`` with `invalidState` before the first negotiation completed.
    public func renegotiate(_ id: String) throws(PeerManagerError) -> String {
        guard var entry = entries[id] else { throw .unknownConnection(id) }
        guard let current = entry.connection.currentDescriptions else {
            throw .connection(id: id, .invalidState(operation: "renegotiate", state: entry.connection.signalingState))
        }
        let offer = entry.session.subsequentOffer(
            local: current.local, remote: current.remote, changes: .init(), using: &generator)
        return try apply(offer, to: &entry, id)
    }

    /// The final answer to the remote offer pending on `id`, after a provisional one (``processOffer(_:for:policy:provisional:)``
    /// with `provisional: true`); applied locally and returned.
    public func answerPendingOffer(for id: String, policy: AnswerPolicy? = nil) throws(PeerManagerError) -> String {
        guard var entry = entries[id] else { throw .unknownConnection(id) }
        return try answer(&entry, id, policy: policy, type: .answer)
    }

    /// Rolls back the offer pending on `id`, local or remote (W3C rollback: only from `have-local-offer` and
    /// `have-remote-offer`): the connection returns to `stable` with the descriptions in force before it, and a
    /// pending ``restartIce(for:)`` still applies to the next offer.
    public func rollback(_ id: String) throws(PeerManagerError) {
        guard var entry = entries[id] else { throw .unknownConnection(id) }
        _ = try run(id, &entry) { pc throws(PeerConnectionError) in
            pc.signalingState == .haveRemoteOffer
                ? try pc.setRemoteDescription(.rollback, sdp: "") : try pc.setLocalDescription(.rollback)
        }
        entries[id] = entry
    }

    /// Sets the direction of the section `mid` of `id` (hold, mute or resume, RFC 3264 §8.4): the next offer offers it,
    /// and the next answer answers within it. `nil` stops asking: the section keeps the direction in force (its
    /// offered direction, or for an answer the ``AnswerPolicy``'s). Takes effect at the next
    /// ``renegotiate(_:)``, ``generateOffer(for:media:)`` or answer.
    public func setDirection(_ direction: MediaDirection?, forMid mid: String, of id: String) throws(PeerManagerError) {
        guard entries[id] != nil else { throw .unknownConnection(id) }
        entries[id]?.session.directions[mid] = direction
    }

    /// The session of `id`: its credentials, sources and the changes asked for.
    public func session(of id: String) -> LocalSession? { entries[id]?.session }
}
