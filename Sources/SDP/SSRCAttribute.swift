/// An `a=ssrc:<ssrc> <attribute>[:<value>]` attribute (RFC 5576 §4.1), such as `cname:…` or `msid:…`.
public struct SSRCAttribute: Hashable, Sendable, Codable {
    /// The synchronization source, a UInt32 (docs/sdp-jsep.md#real-world-sdp, item 5).
    public var ssrc: UInt32
    /// The source attribute name, such as `cname`, `msid`, `mslabel` or `label`.
    public var name: String
    /// The source attribute value; `nil` for a bare name (`a=ssrc:1399694169 baz`).
    public var value: String?

    /// A source attribute.
    public init(ssrc: UInt32, name: String, value: String? = nil) {
        self.ssrc = ssrc
        self.name = name
        self.value = value
    }

    /// Parses the attribute value; `nil` unless it starts with a UInt32 and a name.
    public init?(attributeValue: some StringProtocol) {
        guard let (id, rest) = PayloadTyped.split(attributeValue),
            let ssrc = SDPGrammar.decimal(id, as: UInt32.self), !rest.isEmpty
        else { return nil }
        if let colon = rest.firstIndex(of: ":") {
            self.init(ssrc: ssrc, name: String(rest[..<colon]), value: String(rest[rest.index(after: colon)...]))
        } else {
            self.init(ssrc: ssrc, name: String(rest))
        }
    }

    /// The attribute value.
    public var attributeValue: String { value.map { "\(ssrc) \(name):\($0)" } ?? "\(ssrc) \(name)" }
}

/// An `a=ssrc-group:<semantics> <ssrc> …` attribute (RFC 5576 §4.2): `FID` (RTX), `FEC-FR`, legacy `SIM`.
public struct SSRCGroup: Hashable, Sendable, Codable {
    /// The semantics token.
    public var semantics: String
    /// The grouped sources, in order (for FID: primary, then repair).
    public var ssrcs: [UInt32]

    /// A group of `ssrcs` with `semantics`.
    public init(semantics: String, ssrcs: [UInt32]) {
        self.semantics = semantics
        self.ssrcs = ssrcs
    }

    /// Parses the attribute value; `nil` unless every source is a UInt32.
    public init?(attributeValue: some StringProtocol) {
        let parts = attributeValue.split(separator: " ")
        guard let first = parts.first else { return nil }
        var ssrcs: [UInt32] = []
        for part in parts.dropFirst() {
            guard let ssrc = SDPGrammar.decimal(part, as: UInt32.self) else { return nil }
            ssrcs.append(ssrc)
        }
        self.init(semantics: String(first), ssrcs: ssrcs)
    }

    /// The attribute value.
    public var attributeValue: String { ([semantics] + ssrcs.map(String.init)).joined(separator: " ") }
}
