/// A snapshot of the typed accessors of a description, for tools and tests (`sdp-tool inspect --json`).
///
/// Media-level values are *effective* values: the section's own, else the session's (RFC 8866 §5). The
/// JSON shape is documented in `Schemas/sdp-tool-inspect.schema.json`.
public struct SDPSummary: Hashable, Sendable, Codable {
    /// One media section.
    public struct Media: Hashable, Sendable, Codable {
        /// The 0-based position (sdpMLineIndex).
        public var index: Int
        /// The media type of the `m=` line.
        public var kind: String
        /// The `m=` port.
        public var port: Int
        /// The `m=` transport protocol.
        public var proto: String
        /// The `m=` format list as written.
        public var formats: [String]
        /// `a=mid`.
        public var mid: String?
        /// The effective direction (sendrecv when none is written).
        public var direction: MediaDirection
        /// Port 0 without bundle-only.
        public var rejected: Bool
        /// `a=bundle-only`.
        public var bundleOnly: Bool
        /// The RTP codecs in `m=` order.
        public var codecs: [MediaDescription.Codec]
        /// `a=rtcp-fb:*` lines.
        public var wildcardFeedback: [RTCPFeedback]
        /// The effective `a=ice-ufrag`.
        public var iceUfrag: String?
        /// The effective `a=ice-pwd`.
        public var icePwd: String?
        /// The effective `a=ice-options` tags.
        public var iceOptions: [String]
        /// The effective fingerprints.
        public var fingerprints: [Fingerprint]
        /// The effective `a=setup`.
        public var setup: SetupRole?
        /// `a=rtcp-mux`.
        public var rtcpMux: Bool
        /// The effective `c=` line.
        public var connection: Connection?
        /// The section's `b=` lines.
        public var bandwidths: [Bandwidth]
        /// The candidates, each as `candidate:…`.
        public var candidates: [String]
        /// The effective end-of-candidates flag.
        public var endOfCandidates: Bool
        /// `a=msid` lines.
        public var msids: [MediaStreamID]
        /// The distinct SSRCs of `a=ssrc` lines.
        public var ssrcs: [UInt32]
        /// `a=ssrc-group` lines.
        public var ssrcGroups: [SSRCGroup]
        /// `a=rid` lines.
        public var rids: [RTPStreamID]
        /// Every `a=simulcast` line.
        public var simulcast: [Simulcast]
        /// `a=extmap` lines.
        public var extmaps: [ExtMap]
        /// `a=sctp-port`.
        public var sctpPort: Int?
        /// `a=max-message-size`.
        public var maxMessageSize: UInt64?
    }

    /// The `o=` line.
    public var origin: Origin?
    /// The `s=` text.
    public var sessionName: String?
    /// Session-level `a=ice-lite`.
    public var iceLite: Bool
    /// `a=group` lines.
    public var groups: [MediaGroup]
    /// Session-level `b=` lines.
    public var bandwidths: [Bandwidth]
    /// The media sections in order.
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
