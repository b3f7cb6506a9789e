/// One ICE candidate, the RFC 8839 §5.1 `candidate-attribute` (plus the RFC 6544 `tcptype` extension).
///
/// Extension pairs are kept in their original order, unknown ones included (docs/sdp-jsep.md#candidate-grammar), so
/// that ``attributeValue`` reproduces a well-formed input line exactly. `tcptype`, `generation`, `ufrag`,
/// `network-id` and `network-cost` are read from those pairs.
public struct CandidateAttribute: Hashable, Sendable, CustomStringConvertible {
    /// A `name value` extension pair after the candidate type and related address.
    public struct Extension: Hashable, Sendable, Codable {
        /// The extension name (a token), such as `generation` or `tcptype`.
        public var name: String
        /// The extension value (visible characters).
        public var value: String

        /// A pair `name value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Up to 32 ice-chars; candidates with equal foundations share a base (RFC 8445 §5.1.1.3).
    public var foundation: String
    /// 1 for RTP, 2 for RTCP.
    public var componentID: Int
    /// The transport as written (`udp`, `UDP`, `tcp`, …); compare with ``transportProtocol``.
    public var transport: String
    /// RFC 8445 §5.1.2 priority, 1 … 2^31−1.
    public var priority: UInt32
    /// The connection address: IPv4, IPv6, or a host name such as an mDNS `.local` name.
    public var address: String
    /// The port, 0–65535 (0 and 9 appear on TCP active candidates).
    public var port: Int
    /// The candidate type after `typ`.
    public var type: CandidateType
    /// `raddr`, the related address (RFC 8839: required for srflx, prflx and relay).
    public var relatedAddress: String?
    /// `rport`, the related port.
    public var relatedPort: Int?
    /// The extension pairs in order, including `tcptype`.
    public var extensions: [Extension]

    /// A candidate with the given fields.
    public init(
        foundation: String, componentID: Int = 1, transport: String = "udp", priority: UInt32, address: String,
        port: Int, type: CandidateType, relatedAddress: String? = nil, relatedPort: Int? = nil,
        extensions: [Extension] = []
    ) {
        self.foundation = foundation
        self.componentID = componentID
        self.transport = transport
        self.priority = priority
        self.address = address
        self.port = port
        self.type = type
        self.relatedAddress = relatedAddress
        self.relatedPort = relatedPort
        self.extensions = extensions
    }

    /// Parses a candidate line in any of its forms: `a=candidate:…`, `candidate:…` (the
    /// `RTCIceCandidateInit.candidate` form) or, in lenient mode, the bare value without a prefix.
    public init(parsing line: some StringProtocol, mode: ParseMode = .strict) throws(CandidateParseError) {
        var text = Substring(line)
        if text.hasPrefix("a=") { text = text.dropFirst(2) }
        if text.hasPrefix("candidate:") {
            text = text.dropFirst("candidate:".count)
        } else if mode == .strict {
            throw CandidateParseError(reason: "missing 'candidate:' prefix")
        }
        try self.init(attributeValue: text, mode: mode)
    }

    /// The transport, lowercased: the ABNF literal is case-insensitive (RFC 5234 §2.3).
    public var transportProtocol: String { transport.lowercased() }

    /// The RFC 6544 `tcptype` (`active`, `passive`, `so`), when present.
    public var tcpType: TCPType? { extensionValue("tcptype").flatMap(TCPType.init(rawValue:)) }

    /// The libwebrtc `generation` extension.
    public var generation: Int? { extensionValue("generation").flatMap { Int($0) } }

    /// The `ufrag` extension: the usernameFragment of the candidate's ICE generation.
    public var usernameFragment: String? { extensionValue("ufrag") }

    /// The libwebrtc `network-id` extension.
    public var networkID: Int? { extensionValue("network-id").flatMap { Int($0) } }

    /// The libwebrtc `network-cost` extension.
    public var networkCost: Int? { extensionValue("network-cost").flatMap { Int($0) } }

    /// The kind of ``address``; `nil` only for a lenient parse of an unrecognisable address.
    public var addressKind: CandidateAddressKind? { CandidateAddressKind(address: address) }

    /// `true` when the address is an mDNS `.local` name that only the receiver's resolver can map.
    public var isMDNS: Bool { addressKind == .mdns }

    /// The value of the first extension pair named `name`.
    public func extensionValue(_ name: String) -> String? { extensions.first { $0.name == name }?.value }

    /// The text after `candidate:`.
    public var attributeValue: String {
        var parts = [foundation, String(componentID), transport, String(priority), address, String(port), "typ", type.rawValue]
        if let relatedAddress { parts += ["raddr", relatedAddress] }
        if let relatedPort { parts += ["rport", String(relatedPort)] }
        for pair in extensions { parts += [pair.name, pair.value] }
        return parts.joined(separator: " ")
    }

    /// `candidate:<value>`: the `RTCIceCandidateInit.candidate` form (docs/sdp-jsep.md#trickle-json).
    public var description: String { "candidate:" + attributeValue }
}

/// The candidate type after `typ` (RFC 8839 §5.1).
public enum CandidateType: Hashable, Sendable {
    /// A host candidate.
    case host
    /// A server-reflexive candidate (STUN).
    case srflx
    /// A peer-reflexive candidate.
    case prflx
    /// A relayed candidate (TURN).
    case relay
    /// An extension type token.
    case other(String)

    /// The type from its token.
    public init(rawValue: String) {
        switch rawValue {
        case "host": self = .host
        case "srflx": self = .srflx
        case "prflx": self = .prflx
        case "relay": self = .relay
        default: self = .other(rawValue)
        }
    }

    /// The token.
    public var rawValue: String {
        switch self {
        case .host: "host"
        case .srflx: "srflx"
        case .prflx: "prflx"
        case .relay: "relay"
        case .other(let token): token
        }
    }

    /// RFC 8839 §5.1: raddr and rport "MUST" be present for these types.
    public var requiresRelatedAddress: Bool { self == .srflx || self == .prflx || self == .relay }
}

/// The RFC 6544 §4.5 `tcptype` of a TCP candidate.
public enum TCPType: String, Hashable, Sendable, Codable {
    /// Opens outgoing connections only.
    case active
    /// Accepts incoming connections only.
    case passive
    /// Simultaneous open.
    case so
}
