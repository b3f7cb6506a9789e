public import SDP

/// The registry of peer connections keyed by id: a thin actor over ``PeerConnection`` values.
///
/// Each operation touches one connection's value only, so operations on different ids never interfere
/// (NBMWebRTCPeer shared one `offerBlock` between them). Local credentials (and, without a configured
/// certificate, a fingerprint) are drawn from the injected generator once per connection; credentials are
/// drawn again after ``restartIce(for:)``.
public actor PeerManager {
    struct Entry {
        var connection: PeerConnection
        var credentials: IceCredentials
        var fingerprint: Fingerprint
        var sessionID: UInt64
        var sessionVersion: UInt64 = 0
    }

    private var entries: [String: Entry] = [:]
    private var generator: any RandomNumberGenerator
    private let configuration: PeerConnection.Configuration
    private let answerPolicy: AnswerPolicy
    private let fingerprint: Fingerprint?
    private var subscribers: [Int: AsyncThrowingStream<PeerManagerEvent, any Error>.Continuation] = [:]
    private var nextSubscriber = 0
    private let subscriberBuffer: Int

    /// A registry.
    /// - Parameters:
    ///   - configuration: the settings of every connection (glare handling, queued candidates).
    ///   - answerPolicy: how ``processOffer(_:for:policy:)`` answers when the call names no policy.
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

    private func publish(_ event: PeerManagerEvent) {
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
    public func generateOffer(for id: String, media: MediaConfiguration) throws(PeerManagerError) -> String {
        var entry = entries[id] ?? newEntry()
        entry.sessionVersion += 1
        let offer = OfferBuilder.offer(
            for: media, credentials: entry.credentials, fingerprint: entry.fingerprint, sessionID: entry.sessionID,
            sessionVersion: entry.sessionVersion)
        let sdp = try run(id, &entry) { pc throws(PeerConnectionError) in
            _ = try pc.createOffer(offer)
            return try pc.setLocalDescription(.offer)
        }
        entries[id] = entry
        publish(.offerGenerated(id: id, sdp: sdp))
        return sdp
    }

    /// Applies a remote offer, answers it as the media server does (``AnswerBuilder``) and returns the answer.
    /// - Parameters:
    ///   - sdp: the remote offer.
    ///   - id: the connection; created when the registry does not have it yet.
    ///   - policy: the answer policy for this offer; the registry's own when `nil`.
    public func processOffer(_ sdp: String, for id: String, policy: AnswerPolicy? = nil) throws(PeerManagerError) -> String {
        var entry = entries[id] ?? newEntry()
        let before = entry.connection.remoteDescription?.description
        _ = try run(id, &entry) { pc throws(PeerConnectionError) in try pc.setRemoteDescription(.offer, sdp: sdp) }
        entry.sessionVersion += 1
        guard let offer = entry.connection.remoteDescription?.description else { throw .unknownConnection(id) }
        // An offer that changes the peer's ICE credentials restarts ICE: the answer gets new ones of ours too
        // (docs/sdp-jsep.md#answers). The old generation's remote candidates went with the old description.
        if let before, Self.restartsICE(offer, comparedWith: before) { entry.credentials = .random(using: &generator) }
        let answer = AnswerBuilder.answer(
            to: offer, policy: policy ?? answerPolicy, credentials: entry.credentials, fingerprint: entry.fingerprint,
            sessionID: entry.sessionID, sessionVersion: entry.sessionVersion)
        let text = try run(id, &entry) { pc throws(PeerConnectionError) in
            _ = try pc.createAnswer(answer)
            return try pc.setLocalDescription(.answer)
        }
        entries[id] = entry
        publish(.answerGenerated(id: id, sdp: text))
        return text
    }

    /// Applies the peer's answer to the offer generated for `id`.
    ///
    /// - Throws: ``PeerManagerError/invalidAnswer(id:_:)`` naming each broken rule when the answer does not fit the
    ///   offer (``enforcedAnswerRules``; with the current descriptions of a renegotiation, ICE restarts too);
    ///   ``PeerManagerError/connection(id:_:)`` when the connection refuses it (state, syntax).
    public func processAnswer(_ sdp: String, for id: String) throws(PeerManagerError) {
        guard var entry = entries[id] else { throw .unknownConnection(id) }
        let violations = Self.violations(of: sdp, answering: entry.connection)
        guard violations.isEmpty else { throw .invalidAnswer(id: id, violations) }
        _ = try run(id, &entry) { pc throws(PeerConnectionError) in try pc.setRemoteDescription(.answer, sdp: sdp) }
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

    /// Makes the next offer for `id` carry new ICE credentials; candidates of the old generation are then
    /// rejected once the peer answers.
    public func restartIce(for id: String) throws(PeerManagerError) {
        guard entries[id] != nil else { throw .unknownConnection(id) }
        entries[id]?.credentials = .random(using: &generator)
    }

    /// Closes and forgets the connection.
    public func closeConnection(_ id: String) {
        guard entries.removeValue(forKey: id) != nil else { return }
        publish(.connectionClosed(id: id))
    }

    /// The rules a remote answer must keep for ``processAnswer(_:for:)`` to apply it: the m-lines and their kinds,
    /// the transport profile, the mids echoed, a payload-type subset of the offer's, a BUNDLE group within the
    /// offered one, a DTLS role that fits the offered `a=setup`, and (renegotiating) the ICE-restart rule. The
    /// checker's other rules (directions, extensions, …) describe what a well-behaved answerer sends; real media
    /// servers bend some of them harmlessly, so they are reported by `sdp-tool check-answer` but not enforced here.
    public static let enforcedAnswerRules: Set<AnswerRule> = [
        .mLineCount, .mediaType, .proto, .midEcho, .codecSubset, .bundleSubset, .setup, .iceRestart,
    ]

    /// The enforced rules `sdp` breaks as an answer to `connection`'s pending local offer; none when there is no
    /// such offer or the text does not parse (the connection then reports the state or syntax error itself).
    static func violations(of sdp: String, answering connection: PeerConnection) -> [AnswerViolation] {
        guard let offer = connection.pendingLocalDescription, offer.type == .offer,
              let answer = try? SessionDescription(parsing: sdp)
        else { return [] }
        let current = connection.currentLocalDescription.flatMap { local in
            connection.currentRemoteDescription.map {
                AnswerChecker.CurrentDescriptions(offerer: local.description, answerer: $0.description)
            }
        }
        return AnswerChecker.violations(offer: offer.description, answer: answer, current: current)
            .filter { enforcedAnswerRules.contains($0.rule) }
    }

    /// Whether `offer` carries other ICE credentials than the peer's current description `current` in any
    /// m-line both use (new and rejected sections do not count; RFC 8839 §4.4.1.1).
    static func restartsICE(_ offer: SessionDescription, comparedWith current: SessionDescription) -> Bool {
        offer.media.indices.contains { index in
            guard index < current.media.count, !offer.media[index].isRejected, !current.media[index].isRejected
            else { return false }
            return offer.effectiveIceUfrag(ofMediaAt: index) != current.effectiveIceUfrag(ofMediaAt: index)
                || offer.effectiveIcePwd(ofMediaAt: index) != current.effectiveIcePwd(ofMediaAt: index)
        }
    }

    private func newEntry() -> Entry {
        Entry(
            connection: PeerConnection(configuration: configuration), credentials: .random(using: &generator),
            fingerprint: fingerprint ?? .randomSHA256(using: &generator), sessionID: generator.next() & (1 << 63 - 1))
    }

    /// Runs `body` on the entry's connection and publishes its events; returns the local SDP afterwards.
    private func run(
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
