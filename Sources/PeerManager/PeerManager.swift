public import SDP

/// The registry of peer connections keyed by id: a thin actor over ``PeerConnection`` values.
///
/// Each operation touches one connection's value only, so operations on different ids never interfere
/// (NBMWebRTCPeer shared one `offerBlock` between them). Each connection keeps a ``LocalSession``: credentials,
/// fingerprint (unless one is configured), `o=` ids and sending sources drawn from the injected generator once, and
/// kept by every renegotiation (docs/sdp-jsep.md#renegotiation); credentials are drawn again for an ICE restart,
/// local (``restartIce(for:)``) or remote.
public actor PeerManager {
    struct Entry {
        var connection: PeerConnection
        var session: LocalSession
    }

    var entries: [String: Entry] = [:]
    var generator: any RandomNumberGenerator
    private let configuration: PeerConnection.Configuration
    let answerPolicy: AnswerPolicy
    private let fingerprint: Fingerprint?
    private var subscribers: [Int: AsyncThrowingStream<PeerManagerEvent, any Error>.Continuation] = [:]
    private var nextSubscriber = 0
    private let subscriberBuffer: Int

    /// A registry.
    /// - Parameters:
    ///   - configuration: the settings of every connection (glare handling, queued candidates).
    ///   - answerPolicy: how ``processOffer(_:for:policy:provisional:)`` answers when the call names no policy.
    ///   - fingerprint: the DTLS certificate fingerprint to advertise; a random well-formed one when `nil`.
    ///   - generator: the source of credentials and session ids (inject a seeded one in tests).
    ///   - subscriberBuffer: events a subscriber may fall behind before its sequence ends with an error.
    public init(
        configuration: PeerConnection.Configuration = .init(), answerPolicy: AnswerPolicy = .init(),
        fingerprint: Fingerprint? = nil, generator: any RandomNumberGenerator = SystemRandomNumberGenerator(),
        subscriberBuffer: Int = 1024
    ) {
        self.configuration = configuration
        self.answerPolicy = answerPolicy
        self.fingerprint = fingerprint
        self.generator = generator
        self.subscriberBuffer = subscriberBuffer
    }

    /// A new subscriber sequence of every event from now on (multicast, bounded; docs/architecture.md#event-streams).
    public func events() -> AsyncThrowingStream<PeerManagerEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream<PeerManagerEvent, any Error>.makeStream(
            bufferingPolicy: .bufferingOldest(subscriberBuffer))
        let key = nextSubscriber
        nextSubscriber += 1
        subscribers[key] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(key) }
        }
        return stream
    }

    private func unsubscribe(_ key: Int) { subscribers[key] = nil }

    func publish(_ event: PeerManagerEvent) {
        for (key, continuation) in subscribers {
            if case .dropped = continuation.yield(event) {
                continuation.finish(throwing: PeerManagerError.subscriberOverflow(limit: subscriberBuffer))
                subscribers[key] = nil
            }
        }
    }

    /// The ids of the open connections, sorted.
    public var activeConnections: [String] { entries.keys.sorted() }

    /// A snapshot of one connection.
    public func connection(_ id: String) -> PeerConnection? { entries[id]?.connection }

    /// Builds an offer for `media`, applies it locally and returns its SDP. Creates the connection if needed.
    ///
    /// On a connection that has negotiated before, the offer is a subsequent one (docs/sdp-jsep.md#subsequent-offers):
    /// every m-line stays in place with its mid; the first accepted section of each kind takes the direction `media`
    /// gives it, a kind `media` leaves out is stopped (port 0), and a kind it adds gets a new section.
    public func generateOffer(for id: String, media: MediaConfiguration) throws(PeerManagerError) -> String {
        var entry = entries[id] ?? newEntry()
        let offer: SessionDescription
        if let current = entry.connection.currentDescriptions {
            offer = entry.session.subsequentOffer(
                local: current.local, remote: current.remote, changes: .init(media, against: current.local, remote: current.remote),
                using: &generator)
        } else {
            offer = entry.session.offer(for: media, using: &generator)
        }
        return try apply(offer, to: &entry, id)
    }

    /// Applies `offer` as the local offer of `entry` and publishes it.
    func apply(_ offer: SessionDescription, to entry: inout Entry, _ id: String) throws(PeerManagerError) -> String {
        let sdp = try run(id, &entry) { pc throws(PeerConnectionError) in
            _ = try pc.createOffer(offer)
            return try pc.setLocalDescription(.offer)
        }
        entries[id] = entry
        publish(.offerGenerated(id: id, sdp: sdp))
        return sdp
    }

    /// Applies a remote offer, answers it as the media server does (``AnswerBuilder``) and returns the answer.
    ///
    /// In a renegotiation the answer keeps this side's credentials, DTLS role and sources, and gets new credentials when
    /// the offer restarts ICE (docs/sdp-jsep.md#answers).
    /// - Parameters:
    ///   - sdp: the remote offer.
    ///   - id: the connection; created when the registry does not have it yet.
    ///   - policy: the answer policy for this offer; the registry's own when `nil`.
    ///   - provisional: `true` to apply the answer as a pranswer (`have-local-pranswer`); the final answer then comes
    ///     from ``answerPendingOffer(for:policy:)``.
    public func processOffer(
        _ sdp: String, for id: String, policy: AnswerPolicy? = nil, provisional: Bool = false
    ) throws(PeerManagerError) -> String {
        var entry = entries[id] ?? newEntry()
        _ = try run(id, &entry) { pc throws(PeerConnectionError) in try pc.setRemoteDescription(.offer, sdp: sdp) }
        entries[id] = entry
        return try answer(&entry, id, policy: policy, type: provisional ? .pranswer : .answer)
    }

    /// Builds the answer to the connection's pending remote offer, applies it as `type` and publishes it.
    func answer(
        _ entry: inout Entry, _ id: String, policy: AnswerPolicy?, type: DescriptionType
    ) throws(PeerManagerError) -> String {
        guard let offer = entry.connection.pendingRemoteDescription?.description else {
            throw .connection(id: id, .invalidState(operation: "answer", state: entry.connection.signalingState))
        }
        // The old generation's remote candidates went with the old description (docs/sdp-jsep.md#answers).
        let answer = entry.session.answer(
            to: offer, current: entry.connection.currentDescriptions, policy: policy ?? answerPolicy, using: &generator)
        let text = try run(id, &entry) { pc throws(PeerConnectionError) in
            _ = try pc.createAnswer(answer)
            return try pc.setLocalDescription(type)
        }
        entries[id] = entry
        publish(.answerGenerated(id: id, sdp: text))
        return text
    }

    /// Applies the peer's answer to the offer generated for `id`.
    ///
    /// - Parameters:
    ///   - sdp: the peer's answer.
    ///   - id: the connection that made the offer.
    ///   - provisional: `true` for a pranswer (`have-remote-pranswer`); the final answer follows.
    /// - Throws: ``PeerManagerError/invalidAnswer(id:_:)`` naming each broken rule when the answer does not fit the
    ///   offer (``enforcedAnswerRules``; with the current descriptions of a renegotiation, ICE restarts too);
    ///   ``PeerManagerError/connection(id:_:)`` when the connection refuses it (state, syntax).
    public func processAnswer(_ sdp: String, for id: String, provisional: Bool = false) throws(PeerManagerError) {
        guard var entry = entries[id] else { throw .unknownConnection(id) }
        let violations = Self.violations(of: sdp, answering: entry.connection)
        guard violations.isEmpty else { throw .invalidAnswer(id: id, violations) }
        _ = try run(id, &entry) { pc throws(PeerConnectionError) in
            try pc.setRemoteDescription(provisional ? .pranswer : .answer, sdp: sdp)
        }
        if !provisional { entry.session.iceRestartRequested = false }
        entries[id] = entry
    }

    /// Adds a remote candidate (queued until the remote description exists).
    public func addICECandidate(_ candidate: IceCandidate, for id: String) throws(PeerManagerError) {
        guard var entry = entries[id] else { throw .unknownConnection(id) }
        _ = try run(id, &entry) { pc throws(PeerConnectionError) in try pc.addRemoteCandidate(candidate) }
        entries[id] = entry
    }

    /// Reports a locally gathered candidate; it comes out as a ``PeerManagerEvent/localCandidate(id:candidate:)``.
    public func addLocalCandidate(_ candidate: IceCandidate, for id: String) throws(PeerManagerError) {
        guard var entry = entries[id] else { throw .unknownConnection(id) }
        _ = try run(id, &entry) { pc throws(PeerConnectionError) in try pc.addLocalCandidate(candidate) }
        entries[id] = entry
    }

    /// Makes the next offer for `id` carry new ICE credentials, until an answer completes it; candidates of the old
    /// generation are then rejected.
    public func restartIce(for id: String) throws(PeerManagerError) {
        guard entries[id] != nil else { throw .unknownConnection(id) }
        entries[id]?.session.iceRestartRequested = true
    }

    /// Closes and forgets the connection.
    public func closeConnection(_ id: String) {
        guard entries.removeValue(forKey: id) != nil else { return }
        publish(.connectionClosed(id: id))
    }

    /// The rules a remote answer must keep for ``processAnswer(_:for:provisional:)`` to apply it: the m-lines and their kinds,
    /// the transport profile, the mids echoed and unique, a payload-type subset of the offer's, a BUNDLE group within the
    /// offered one, a DTLS role that fits the offered `a=setup`, and (renegotiating) the ICE-restart rule. The
    /// checker's other rules (directions, extensions, …) describe what a well-behaved answerer sends; real media
    /// servers bend some of them harmlessly, so they are reported by `sdp-tool check-answer` but not enforced here.
    public static let enforcedAnswerRules: Set<AnswerRule> = [
        .mLineCount, .mediaType, .proto, .midEcho, .uniqueMid, .codecSubset, .bundleSubset, .setup, .iceRestart,
    ]

    /// The enforced rules `sdp` breaks as an answer to `connection`'s pending local offer; none when there is no
    /// such offer or the text does not parse (the connection then reports the state or syntax error itself).
    static func violations(of sdp: String, answering connection: PeerConnection) -> [AnswerViolation] {
        guard let offer = connection.pendingLocalDescription, offer.type == .offer,
              let answer = try? SessionDescription(parsing: sdp)
        else { return [] }
        let current = connection.currentDescriptions.map {
            AnswerChecker.CurrentDescriptions(offerer: $0.local, answerer: $0.remote)
        }
        return AnswerChecker.violations(offer: offer.description, answer: answer, current: current)
            .filter { enforcedAnswerRules.contains($0.rule) }
    }

    func newEntry() -> Entry {
        Entry(connection: PeerConnection(configuration: configuration),
              session: LocalSession(fingerprint: fingerprint, using: &generator))
    }

    /// Runs `body` on the entry's connection and publishes its events; returns the local SDP afterwards.
    func run(
        _ id: String, _ entry: inout Entry, _ body: (inout PeerConnection) throws(PeerConnectionError) -> [PeerConnectionEvent]
    ) throws(PeerManagerError) -> String {
        let events: [PeerConnectionEvent]
        do {
            events = try body(&entry.connection)
        } catch {
            throw .connection(id: id, error)
        }
        for event in events {
            switch event {
            case .signalingStateChanged(let state): publish(.signalingStateChanged(id: id, state: state))
            case .implicitRollback: publish(.implicitRollback(id: id))
            case .localCandidate(let candidate): publish(.localCandidate(id: id, candidate: candidate))
            case .queuedCandidatesApplied, .queuedCandidatesDropped: break
            }
        }
        return entry.connection.localDescription?.sdp ?? ""
    }
}
