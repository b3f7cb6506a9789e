public import SDP

extension OfferBuilder {
    /// What a subsequent offer changes against the session in force.
    public struct Changes: Hashable, Sendable {
        /// New directions by mid (hold, mute or resume by direction, RFC 3264 §8.4).
        public var directions: [String: MediaDirection]
        /// Mids whose sections stop: they are offered with port 0 from now on (RFC 3264 §8.2).
        public var stopped: Set<String>
        /// Sections to add after the existing ones, with new mids (RFC 3264 §8.1).
        public var added: MediaConfiguration

        /// Changes; none by default.
        public init(directions: [String: MediaDirection] = [:], stopped: Set<String> = [], added: MediaConfiguration = .init()) {
            self.directions = directions
            self.stopped = stopped
            self.added = added
        }
    }

    /// A subsequent offer (JSEP §5.2.2, RFC 3264 §8; docs/sdp-jsep.md#subsequent-offers): every m-line of the session
    /// in force, in its order and with its mid; a section rejected by either side stays rejected at port 0; an
    /// accepted one keeps its codecs, extensions and candidates and takes its direction from `changes` or from
    /// `local`; added sections follow with new mids. Whoever offered before, `local` and `remote` are this side's and
    /// the peer's current descriptions.
    /// - Parameters:
    ///   - local: this side's current local description (the offer or answer it sent last).
    ///   - remote: the peer's current description.
    ///   - changes: directions, stopped sections and added sections.
    ///   - credentials: the ICE credentials to offer: the current ones, or new ones to restart ICE (RFC 8839 §4.4.1.1);
    ///     with new ones, candidates of the old generation are left out.
    ///   - fingerprint: the DTLS certificate fingerprint.
    ///   - sessionID: the `o=` session id, unchanged for the session (RFC 3264 §8).
    ///   - sessionVersion: the `o=` version, higher than the last one sent.
    public static func subsequentOffer(
        local: SessionDescription, remote: SessionDescription, changes: Changes = .init(), credentials: IceCredentials,
        fingerprint: Fingerprint, sessionID: UInt64, sessionVersion: UInt64
    ) -> SessionDescription {
        var sdp = SessionDescription(origin: Origin(sessionID: sessionID & (1 << 63 - 1), sessionVersion: sessionVersion))
        sdp.iceLite = local.iceLite
        var sections: [MediaDescription] = []
        for index in local.media.indices {
            let mine = local.media[index]
            if !isInForce(ofMediaAt: index, local: local, remote: remote) || mine.mid.map(changes.stopped.contains) == true {
                sections.append(MediaDescription(rejecting: mine))
                continue
            }
            var section = mine
            let restarts = local.effectiveIceUfrag(ofMediaAt: index) != credentials.ufrag
            if restarts {
                section.removeCandidates()
                section.endOfCandidates = false
            }
            section.connection = local.effectiveConnection(ofMediaAt: index)
            if section.proto.contains("RTP") {
                section.direction = section.mid.flatMap { changes.directions[$0] } ?? local.effectiveDirection(ofMediaAt: index)
            }
            let options = local.effectiveIceOptions(ofMediaAt: index)
            // JSEP §5.2.2: offers say actpass; the answerer keeps the DTLS role it has (docs/sdp-jsep.md#setup).
            addTransport(to: &section, credentials: credentials, fingerprint: fingerprint, setup: .actpass)
            section.iceOptions = options
            sections.append(section)
        }
        var used = Set(sections.compactMap(\.mid))
        var added: [String] = []
        for var section in Self.sections(for: changes.added) {
            var next = sections.count
            while used.contains(String(next)) { next += 1 }
            section.mid = String(next)
            used.insert(String(next))
            added.append(String(next))
            addTransport(to: &section, credentials: credentials, fingerprint: fingerprint, setup: .actpass)
            if sdp.iceLite { section.iceOptions = [] }
            sections.append(section)
        }
        let accepted = Set(sections.filter { !$0.isRejected }.compactMap(\.mid))
        let bundled = local.bundleGroups.flatMap(\.mids).filter(accepted.contains) + added
        if !bundled.isEmpty { sdp.groups = [MediaGroup(semantics: "BUNDLE", mids: bundled)] }
        sdp.appendAttribute(SDPAttribute(name: "msid-semantic", value: " WMS"))
        sdp.media = sections
        return sdp
    }
}

extension OfferBuilder {
    /// Whether m-line `index` of the session in force (this side's `local` and the peer's `remote` current
    /// descriptions) is accepted by both sides; one either side rejected stays rejected in a subsequent offer.
    public static func isInForce(ofMediaAt index: Int, local: SessionDescription, remote: SessionDescription) -> Bool {
        index < local.media.count && index < remote.media.count
            && !local.media[index].isRejected && !remote.media[index].isRejected
    }
}

extension OfferBuilder.Changes {
    /// The changes that make the session in force (`local` and `remote`, this side's and the peer's current
    /// descriptions) offer `media`: the first section of each kind `media` names that both sides accepted takes its
    /// direction, such a section of a kind it leaves out stops, and a kind with no such section is added.
    public init(_ media: MediaConfiguration, against local: SessionDescription, remote: SessionDescription) {
        self.init()
        var addedMedia = MediaConfiguration()
        var seen = Set<String>()
        for (index, section) in local.media.enumerated()
        where OfferBuilder.isInForce(ofMediaAt: index, local: local, remote: remote) {
            guard let mid = section.mid, seen.insert(section.kind).inserted else { continue }
            switch section.kind {
            case "audio": if let audio = media.audio { directions[mid] = audio.direction } else { stopped.insert(mid) }
            case "video": if let video = media.video { directions[mid] = video.direction } else { stopped.insert(mid) }
            case "application": if !media.dataChannel { stopped.insert(mid) }
            default: break
            }
        }
        if !seen.contains("audio") { addedMedia.audio = media.audio }
        if !seen.contains("video") { addedMedia.video = media.video }
        if !seen.contains("application") { addedMedia.dataChannel = media.dataChannel }
        added = addedMedia
    }
}
