public import SDP

extension PeerManager {
    /// Makes a UDP host candidate on `address`:`port` for the first m-line of `id`'s local description (the
    /// bundle-tagged one of a PeerManager offer), with that description's `ufrag`, and reports it like a gathered
    /// one (a ``PeerManagerEvent/localCandidate(id:candidate:)`` event). Returns it, ready to be signaled.
    ///
    /// PeerManager gathers nothing itself (no sockets): signaling tools, examples and tests use this to trickle a
    /// plausible candidate. No socket listens on `port`.
    /// - Throws: ``PeerManagerError/unknownConnection(_:)``, or ``PeerManagerError/connection(id:_:)`` with
    ///   `invalidState` when there is no local description yet.
    @discardableResult
    public func addHostCandidate(address: String, port: Int, for id: String) throws(PeerManagerError) -> IceCandidate {
        guard let connection = connection(id) else { throw .unknownConnection(id) }
        guard let local = connection.localDescription?.description, let first = local.media.first else {
            throw .connection(id: id, .invalidState(operation: "addHostCandidate", state: connection.signalingState))
        }
        // RFC 8445 §5.1.2.1: host type preference 126, local preference 65535, component 1.
        var extensions: [CandidateAttribute.Extension] = []
        if let ufrag = local.effectiveIceUfrag(ofMediaAt: 0) { extensions.append(.init(name: "ufrag", value: ufrag)) }
        let host = CandidateAttribute(foundation: "1", priority: 2_130_706_431, address: address, port: port,
                                      type: .host, extensions: extensions)
        let candidate = IceCandidate(host, sdpMid: first.mid, sdpMLineIndex: 0)
        try addLocalCandidate(candidate, for: id)
        return candidate
    }
}
