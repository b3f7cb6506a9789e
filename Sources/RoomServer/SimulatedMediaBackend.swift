import PeerManager
import RoomProtocol
public import SDP
import SignalingSupport

/// The default ``MediaBackend``: signaling-complete endpoints that carry no media, for tests, demos and clients
/// under development.
///
/// Each endpoint is one connection of a PeerManager ``/PeerManager/PeerManager``: the client's offer is applied
/// as its remote description and answered with ``/PeerManager/AnswerBuilder``, and client candidates are
/// validated against that remote description (a candidate for an unknown `sdpMid`, or of another ICE
/// generation's `ufrag`, is refused with 304 MEDIA_WEBRTC_ENDPOINT; one that ``RoomServer`` had queued is only
/// logged, since its `onIceCandidate` was answered already).
///
/// **ICE.** The simulated side is a *full ICE agent that trickles*, like Kurento Media Server: its answers carry
/// session-level `a=ice-options:trickle`, no `a=ice-lite`, no candidates and no `a=end-of-candidates`
/// (docs/sdp-jsep.md#transport-attributes). Its candidates come back in ``MediaAnswer/candidates``, which
/// ``RoomServer`` sends to the endpoint's owner as `iceCandidate` notifications: one UDP host candidate on ``address``
/// per transport, on its own port, with the `mid` and index of its m-line and the answer's `ufrag`. The bundled m-lines
/// share one transport, whose candidate is on the answer's tagged (first bundled) m-line (RFC 9143 §7.3); every other
/// accepted m-line has its own. No socket is opened on those ports.
///
/// **Directions.** A publisher receives the client's media, and sends it back only with `doLoopback`; a
/// subscriber sends the publisher's media. The answer intersects that with the offered direction.
///
/// Candidates that arrive before an endpoint exists are queued by ``RoomServer``, not here.
///
/// A ``MediaEndpointID`` names an endpoint, not one creation of it: after `unpublishVideo` a new publish of the
/// same user may be created before the old endpoint's ``release(_:)`` arrives. Each creation is therefore its own
/// connection; ``release(_:)`` ends the oldest one of that name, and candidates go to the newest.
///
/// **Faults.** ``fail(_:reason:)`` and ``fail(scope:reason:)`` report failures after the fact, as a media server
/// does (``MediaEvent``), so that `mediaError` and what clients do about it are tested without one.
public final class SimulatedMediaBackend: MediaBackend {
    /// The address of the simulated endpoints' host candidates.
    public let address: String
    private let peers: PeerManager
    private let sinks = MediaEventSinks()
    /// The next candidate port, the number of connections made, and each endpoint's connections, oldest first.
    private let state: LockedValue<(port: Int, made: Int, connections: [MediaEndpointID: [String]])>
    private let portRange: ClosedRange<Int>

    /// Creates a backend.
    /// - Parameters:
    ///   - address: The address of the host candidates. Default `127.0.0.1`.
    ///   - ports: The ports handed out to candidates, in turn (wrapping around). Default 50000…59999.
    ///   - generator: The source of ICE credentials, fingerprints and session ids (inject a seeded one in
    ///     tests).
    public init(address: String = "127.0.0.1", ports: ClosedRange<Int> = 50000...59999,
                generator: sending any RandomNumberGenerator = SystemRandomNumberGenerator()) {
        self.address = address
        portRange = ports
        state = LockedValue((ports.lowerBound, 0, [:]))
        peers = PeerManager(generator: generator)
    }

    /// The endpoints that exist (created and not released), sorted by description; an endpoint created again
    /// before its release appears twice.
    public var endpoints: [MediaEndpointID] {
        state.withLock { s in s.connections.flatMap { endpoint, ids in ids.map { _ in endpoint } } }
            .sorted { $0.description < $1.description }
    }

    /// The remote description of `endpoint` (its newest creation): the client's offer with the candidates
    /// applied to it since; `nil` when the endpoint does not exist.
    public func remoteDescription(of endpoint: MediaEndpointID) async -> SessionDescription? {
        guard let id = connection(of: endpoint) else { return nil }
        return await peers.connection(id)?.remoteDescription?.description
    }

    public func createPublisher(_ endpoint: MediaEndpointID, offer: String, loopback: Bool)
        async throws -> MediaAnswer
    {
        try await answer(endpoint, offer: offer, direction: loopback ? .sendrecv : .recvonly)
    }

    public func createSubscriber(_ endpoint: MediaEndpointID, offer: String) async throws -> MediaAnswer {
        try await answer(endpoint, offer: offer, direction: .sendonly)
    }

    public func addCandidate(_ candidate: MediaCandidate, to endpoint: MediaEndpointID) async throws {
        let ice = IceCandidate(candidate: candidate.candidate, sdpMid: candidate.sdpMid,
                               sdpMLineIndex: candidate.sdpMLineIndex)
        do {
            guard let id = connection(of: endpoint) else { throw PeerManagerError.unknownConnection("\(endpoint)") }
            try await peers.addICECandidate(ice, for: id)
        } catch {
            throw RoomError(.mediaWebRTCEndpoint, message: "\(endpoint.endpointName): candidate refused: \(error)")
        }
    }

    public func release(_ endpoint: MediaEndpointID) async {
        let oldest = state.withLock { s -> String? in
            guard var ids = s.connections[endpoint], !ids.isEmpty else { return nil }
            defer { s.connections[endpoint] = ids.isEmpty ? nil : ids }
            return ids.removeFirst()
        }
        if let oldest { await peers.closeConnection(oldest) }
    }

    public func attach(_ sink: MediaEventSink) { sinks.attach(sink) }

    /// Reports that `endpoint` failed (``MediaEvent/endpointFailed(_:reason:)``), as a media element's error would:
    /// the server drops and releases it, and tells its owner with `mediaError`. Returns `false` (and reports nothing)
    /// when the endpoint does not exist.
    @discardableResult
    public func fail(_ endpoint: MediaEndpointID, reason: String = "simulated media failure") -> Bool {
        guard connection(of: endpoint) != nil else { return false }
        sinks.report(.endpointFailed(endpoint, reason: reason))
        return true
    }

    /// Reports that every endpoint of `scope` failed (``MediaEvent/scopeFailed(_:reason:)``), as a lost media server
    /// or a failed pipeline would.
    public func fail(scope: MediaScope, reason: String = "simulated media failure") {
        sinks.report(.scopeFailed(scope, reason: reason))
    }

    /// The connection of the newest creation of `endpoint`.
    private func connection(of endpoint: MediaEndpointID) -> String? {
        state.withLock { $0.connections[endpoint]?.last }
    }

    /// Answers `offer` on the connection of `endpoint` and makes its server candidates.
    private func answer(_ endpoint: MediaEndpointID, offer: String, direction: MediaDirection) async throws
        -> MediaAnswer
    {
        let id = state.withLock { s -> String in
            s.made += 1
            return "\(endpoint) #\(s.made)"
        }
        let policy = AnswerPolicy(directions: ["audio": direction, "video": direction], trickle: true)
        let sdp = try await peers.processOffer(offer, for: id, policy: policy)
        guard let answer = await peers.connection(id)?.localDescription?.description else {
            throw RoomError(.mediaEndpoint,
                            message: "\(endpoint.endpointName): the endpoint closed while it was created")
        }
        state.withLock { $0.connections[endpoint, default: []].append(id) }
        return MediaAnswer(sdp: sdp, candidates: candidates(for: answer))
    }

    /// One host candidate per transport of `answer`: the tagged m-line of each BUNDLE group, and every accepted
    /// m-line outside the groups.
    private func candidates(for answer: SessionDescription) -> [MediaCandidate] {
        let bundled = Set(answer.bundleGroups.flatMap(\.mids))
        let tagged = Set(answer.bundleGroups.compactMap(\.mids.first))
        return answer.media.indices.compactMap { index -> MediaCandidate? in
            let section = answer.media[index]
            guard section.port != 0, let ufrag = answer.effectiveIceUfrag(ofMediaAt: index) else { return nil }
            if let mid = section.mid, bundled.contains(mid), !tagged.contains(mid) { return nil }
            // RFC 8445 §5.1.2.1: host type preference 126, local preference 65535, component 1.
            let host = CandidateAttribute(
                foundation: "1", priority: 2_130_706_431, address: address, port: nextPort(), type: .host,
                extensions: [.init(name: "generation", value: "0"), .init(name: "ufrag", value: ufrag)])
            return MediaCandidate(candidate: host.description, sdpMid: section.mid ?? "", sdpMLineIndex: index)
        }
    }

    private func nextPort() -> Int {
        state.withLock { s in
            defer { s.port = s.port >= portRange.upperBound ? portRange.lowerBound : s.port + 1 }
            return s.port
        }
    }
}
