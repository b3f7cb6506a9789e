/// A snapshot of the typed accessors of a description, for tools and tests (`sdp-tool inspect --json`).
///
/// Media-level values are *effective* values: the section's own, else the session's (RFC 8866 §5). The
/// JSON shape is documented in `Schemas/sdp-tool-inspect.schema.json`.
public struct SDPSummary: Hashable, Sendable, Codable {
    /// One media section.
    public struct Media: Hashable, Sendable, Codable {
        public var index: Int
        public var kind: String
        public var port: Int
        public var proto: String
        public var formats: [String]
        public var mid: String?
        public var direction: MediaDirection
        public var rejected: Bool
        public var bundleOnly: Bool
        public var codecs: [MediaDescription.Codec]
        public var wildcardFeedback: [RTCPFeedback]
        public var iceUfrag: String?
        public var icePwd: String?
        public var iceOptions: [String]
        public var fingerprints: [Fingerprint]
        public var setup: SetupRole?
        public var rtcpMux: Bool
        public var connection: Connection?
        public var bandwidths: [Bandwidth]
        public var candidates: [String]
        public var endOfCandidates: Bool
        public var msids: [MediaStreamID]
        public var ssrcs: [UInt32]
        public var ssrcGroups: [SSRCGroup]
        public var rids: [RTPStreamID]
        public var simulcast: [Simulcast]
        public var extmaps: [ExtMap]
        public var sctpPort: Int?
        public var maxMessageSize: UInt64?
    }

    public var origin: Origin?
    public var sessionName: String?
    public var iceLite: Bool
    public var groups: [MediaGroup]
    public var bandwidths: [Bandwidth]
    public var media: [Media]

    /// The summary of `description`.
    public init(_ description: SessionDescription) {
        origin = description.origin
        sessionName = description.sessionName
        iceLite = description.iceLite
        groups = description.groups
        bandwidths = description.bandwidths
        media = description.media.indices.map { index in
            let section = description.media[index]
            return Media(
                index: index, kind: section.kind, port: section.port, proto: section.proto, formats: section.formats,
                mid: section.mid, direction: description.effectiveDirection(ofMediaAt: index),
                rejected: section.isRejected, bundleOnly: section.isBundleOnly, codecs: section.codecs,
                wildcardFeedback: section.rtcpFeedback.filter { $0.payloadType == nil },
                iceUfrag: description.effectiveIceUfrag(ofMediaAt: index),
                icePwd: description.effectiveIcePwd(ofMediaAt: index),
                iceOptions: description.effectiveIceOptions(ofMediaAt: index),
                fingerprints: description.effectiveFingerprints(ofMediaAt: index),
                setup: description.effectiveSetup(ofMediaAt: index), rtcpMux: section.rtcpMux,
                connection: description.effectiveConnection(ofMediaAt: index), bandwidths: section.bandwidths,
                candidates: section.candidates.map(\.description),
                endOfCandidates: description.effectiveEndOfCandidates(ofMediaAt: index), msids: section.msids,
                ssrcs: section.ssrcs, ssrcGroups: section.ssrcGroups, rids: section.rids,
                simulcast: section.simulcasts, extmaps: section.extmaps, sctpPort: section.sctpPort,
                maxMessageSize: section.maxMessageSize)
        }
    }
}
