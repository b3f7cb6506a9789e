public import SDP

/// This side of one connection's session: what stays the same across its offers and answers, and the changes asked
/// for before the next one (docs/sdp-jsep.md#renegotiation). A pure value; ``PeerManager`` keeps one per connection,
/// and `sdp-tool` rebuilds one from a previous description (``init(resuming:using:)``).
///
/// The methods take no default arguments: Swift 6.3's IR generation crashes on a defaulted argument of a method whose
/// generator parameter receives an opened existential (`any RandomNumberGenerator`).
///
/// ICE credentials come from the current local description once there is one, so a renegotiation keeps them and a
/// rolled-back restart leaves them as they were; they change when the peer's offer restarts ICE or when
/// ``iceRestartRequested`` is set for the next offer.
public struct LocalSession: Hashable, Sendable {
    /// The credentials of the first offer or answer.
    public var initialCredentials: IceCredentials
    /// The DTLS certificate fingerprint.
    public var fingerprint: Fingerprint
    /// The `o=` session id.
    public var sessionID: UInt64
    /// The `o=` version of the last description made.
    public var sessionVersion: UInt64
    /// The stream, tracks and SSRCs of the sending sections.
    public var sources: SendingSources
    /// Directions asked for by mid: the next offer offers them, and the next answer answers within them.
    public var directions: [String: MediaDirection] = [:]
    /// Whether the next offer restarts ICE (new credentials); ``PeerManager`` clears it once an answer completes it.
    public var iceRestartRequested = false

    /// A new session with credentials, ids and (unless `fingerprint` is given) a fingerprint drawn from `generator`.
    public init(fingerprint: Fingerprint? = nil, using generator: inout some RandomNumberGenerator) {
        initialCredentials = .random(using: &generator)
        self.fingerprint = fingerprint ?? .randomSHA256(using: &generator)
        sessionID = generator.next() & (1 << 63 - 1)
        sessionVersion = 0
        sources = SendingSources(using: &generator)
    }

    /// The session a previous local description belongs to: its credentials, fingerprint, `o=` line and announced
    /// sources (fresh sources when it announced none).
    public init(resuming previous: SessionDescription, using generator: inout some RandomNumberGenerator) {
        self.init(using: &generator)
        if let credentials = Self.credentials(of: previous) { initialCredentials = credentials }
        if let index = previous.media.indices.first(where: { !previous.effectiveFingerprints(ofMediaAt: $0).isEmpty }) {
            fingerprint = previous.effectiveFingerprints(ofMediaAt: index)[0]
        }
        if let origin = previous.origin { (sessionID, sessionVersion) = (origin.sessionID, origin.sessionVersion) }
        if let announced = SendingSources(announcedIn: previous) { sources = announced }
    }

    /// An initial offer for `media`.
    public mutating func offer(
        for media: MediaConfiguration, using generator: inout some RandomNumberGenerator
    ) -> SessionDescription {
        sessionVersion += 1
        var offer = OfferBuilder.offer(
            for: media, credentials: initialCredentials, fingerprint: fingerprint, sessionID: sessionID, sessionVersion: sessionVersion)
        for index in offer.media.indices {
            if let mid = offer.media[index].mid, let direction = directions[mid] { offer.media[index].direction = direction }
        }
        sources.annotate(&offer, using: &generator)
        return offer
    }

    /// A subsequent offer for the session in force (`local` and `remote`, the current descriptions), with the
    /// ``directions`` asked for and `changes`; new credentials when ``iceRestartRequested``.
    public mutating func subsequentOffer(
        local: SessionDescription, remote: SessionDescription, changes: OfferBuilder.Changes,
        using generator: inout some RandomNumberGenerator
    ) -> SessionDescription {
        sessionVersion += 1
        var changes = changes
        changes.directions.merge(directions) { passedNow, _ in passedNow }  // the call's own changes win
        let current = Self.credentials(of: local) ?? initialCredentials
        var offer = OfferBuilder.subsequentOffer(
            local: local, remote: remote, changes: changes,
            credentials: iceRestartRequested ? .random(using: &generator) : current, fingerprint: fingerprint,
            sessionID: sessionID, sessionVersion: sessionVersion)
        sources.annotate(&offer, using: &generator)
        return offer
    }

    /// The answer to `offer` (``AnswerBuilder``). In a renegotiation (`current`: this side's and the peer's current
    /// descriptions) the answer keeps this side's credentials unless the offer restarts ICE, keeps the DTLS role it
    /// has where the offer says actpass (RFC 8842 §5.3), and keeps its sources.
    public mutating func answer(
        to offer: SessionDescription, current: (local: SessionDescription, remote: SessionDescription)?,
        policy: AnswerPolicy, using generator: inout some RandomNumberGenerator
    ) -> SessionDescription {
        sessionVersion += 1
        var credentials = current.flatMap { Self.credentials(of: $0.local) } ?? initialCredentials
        if let current, Self.restartsICE(offer, comparedWith: current.remote) { credentials = .random(using: &generator) }
        var answer = AnswerBuilder.answer(
            to: offer, policy: policy, credentials: credentials, fingerprint: fingerprint, sessionID: sessionID,
            sessionVersion: sessionVersion)
        for index in answer.media.indices where answer.media[index].port != 0 {
            if let mid = answer.media[index].mid, let ability = directions[mid] {
                answer.media[index].direction = AnswerBuilder.answerDirection(
                    to: offer.effectiveDirection(ofMediaAt: index), ability: ability)
            }
            if let current, offer.effectiveSetup(ofMediaAt: index) == .actpass,
               let role = AnswerChecker.establishedRole(ofMediaAt: index, local: current.local, remote: current.remote)
            {
                answer.media[index].setup = role
            }
        }
        sources.annotate(&answer, using: &generator)
        return answer
    }

    /// Whether `offer` carries other ICE credentials than the peer's current description `current` in any m-line
    /// both use (new and rejected sections do not count; RFC 8839 §4.4.1.1).
    public static func restartsICE(_ offer: SessionDescription, comparedWith current: SessionDescription) -> Bool {
        offer.media.indices.contains { index in
            guard index < current.media.count, !offer.media[index].isRejected, !current.media[index].isRejected
            else { return false }
            return offer.effectiveIceUfrag(ofMediaAt: index) != current.effectiveIceUfrag(ofMediaAt: index)
                || offer.effectiveIcePwd(ofMediaAt: index) != current.effectiveIcePwd(ofMediaAt: index)
        }
    }

    /// The credentials of the first accepted section of `description`.
    static func credentials(of description: SessionDescription) -> IceCredentials? {
        for index in description.media.indices where description.media[index].port != 0 {
            if let ufrag = description.effectiveIceUfrag(ofMediaAt: index), let pwd = description.effectiveIcePwd(ofMediaAt: index) {
                return IceCredentials(ufrag: ufrag, pwd: pwd)
            }
        }
        return nil
    }
}
