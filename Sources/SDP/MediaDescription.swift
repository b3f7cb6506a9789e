/// One media section: the `m=` line and the lines that follow it up to the next `m=` (RFC 8866 §5.14).
public struct MediaDescription: SDPLineContainer, Hashable, Sendable {
    /// The media type token: `audio`, `video`, `application`, `image`, `text`, …
    public var kind: String
    /// The transport port. 0 means rejected, unless the section is bundle-only (RFC 9143 §7.5); 9 is the
    /// trickle dummy port (docs/sdp-jsep.md#real-world-sdp, item 13).
    public var port: Int
    /// The optional port count of `m=video 49170/2 …`.
    public var portCount: Int?
    /// The transport protocol, such as `UDP/TLS/RTP/SAVPF` or `UDP/DTLS/SCTP`.
    public var proto: String
    /// The format list: RTP payload types as text, or tokens such as `webrtc-datachannel` or `*`.
    public var formats: [String]
    /// The lines after `m=`, in their original order.
    public var lines: [SDPLine]

    /// A media section with the given `m=` fields and lines.
    public init(
        kind: String, port: Int, portCount: Int? = nil, proto: String, formats: [String], lines: [SDPLine] = []
    ) {
        self.kind = kind
        self.port = port
        self.portCount = portCount
        self.proto = proto
        self.formats = formats
        self.lines = lines
    }

    /// The `m=` line value: `<media> <port>[/<count>] <proto> <fmt> …`.
    public var mediaLineValue: String {
        let portText = portCount.map { "\(port)/\($0)" } ?? "\(port)"
        return ([kind, portText, proto] + formats).joined(separator: " ")
    }

    /// `a=mid`, the section's identification tag (RFC 5888 §4). Setting `nil` removes it.
    public var mid: String? {
        get { attributeValue(named: "mid").map(String.init) }
        set { setAttribute("mid", value: newValue, present: newValue != nil) }
    }

    /// `a=rtcp-mux` (RFC 5761 §5.1.3), required by WebRTC (docs/sdp-jsep.md#transport-attributes).
    public var rtcpMux: Bool {
        get { hasAttribute(named: "rtcp-mux") }
        set { setAttribute("rtcp-mux", value: nil, present: newValue) }
    }

    /// `a=bundle-only` (RFC 9143 §6): port 0 with this flag is *not* a rejection.
    public var isBundleOnly: Bool {
        get { hasAttribute(named: "bundle-only") }
        set { setAttribute("bundle-only", value: nil, present: newValue) }
    }

    /// `true` when the port is 0 and the section is not bundle-only (RFC 3264 §6, RFC 9143 §7.5).
    public var isRejected: Bool { port == 0 && !isBundleOnly }

    /// `a=msid` lines, in order (RFC 8830); several are allowed per section.
    public var msids: [MediaStreamID] {
        get { attributeValues(named: "msid").compactMap(MediaStreamID.init(attributeValue:)) }
        set { replaceAttributes(named: "msid", with: newValue.map { .init(name: "msid", value: $0.attributeValue) }) }
    }

    /// `a=ssrc` lines, in order.
    public var ssrcAttributes: [SSRCAttribute] {
        get { attributeValues(named: "ssrc").compactMap(SSRCAttribute.init(attributeValue:)) }
        set { replaceAttributes(named: "ssrc", with: newValue.map { .init(name: "ssrc", value: $0.attributeValue) }) }
    }

    /// The distinct SSRCs named by `a=ssrc` lines, in order of first appearance.
    public var ssrcs: [UInt32] {
        var seen = Set<UInt32>()
        return ssrcAttributes.compactMap { seen.insert($0.ssrc).inserted ? $0.ssrc : nil }
    }

    /// `a=ssrc-group` lines, in order.
    public var ssrcGroups: [SSRCGroup] {
        get { attributeValues(named: "ssrc-group").compactMap(SSRCGroup.init(attributeValue:)) }
        set {
            replaceAttributes(named: "ssrc-group", with: newValue.map { .init(name: "ssrc-group", value: $0.attributeValue) })
        }
    }

    /// `a=rid` lines, in order (RFC 8851).
    public var rids: [RTPStreamID] {
        get { attributeValues(named: "rid").compactMap(RTPStreamID.init(attributeValue:)) }
        set { replaceAttributes(named: "rid", with: newValue.map { .init(name: "rid", value: $0.attributeValue) }) }
    }

    /// Every `a=simulcast` line (real SDP may carry both the RFC 8853 and the draft-03 form).
    public var simulcasts: [Simulcast] {
        attributeValues(named: "simulcast").compactMap(Simulcast.init(attributeValue:))
    }

    /// The first `a=simulcast`. Setting it replaces every simulcast line with one in RFC 8853 form.
    public var simulcast: Simulcast? {
        get { simulcasts.first }
        set { setAttribute("simulcast", value: newValue?.attributeValue, present: newValue != nil) }
    }

    /// `a=extmap` lines, in order (RFC 8285).
    public var extmaps: [ExtMap] {
        get { attributeValues(named: "extmap").compactMap(ExtMap.init(attributeValue:)) }
        set { replaceAttributes(named: "extmap", with: newValue.map { .init(name: "extmap", value: $0.attributeValue) }) }
    }

    /// `a=sctp-port` (RFC 8841 §5); the SCTP port of a data channel section.
    public var sctpPort: Int? {
        get { attributeValue(named: "sctp-port").flatMap { SDPGrammar.decimal($0, as: Int.self) } }
        set { setAttribute("sctp-port", value: newValue.map(String.init), present: newValue != nil) }
    }

    /// `a=max-message-size` (RFC 8841 §6); absent means 64 KiB.
    public var maxMessageSize: UInt64? {
        get { attributeValue(named: "max-message-size").flatMap { SDPGrammar.decimal($0, as: UInt64.self) } }
        set { setAttribute("max-message-size", value: newValue.map(String.init), present: newValue != nil) }
    }
}
