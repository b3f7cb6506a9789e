/// An `a=rtcp-fb:<pt|*> <type> [<parameter>]` attribute (RFC 4585 §4.2).
public struct RTCPFeedback: Hashable, Sendable, Codable {
    /// The payload type, or `nil` for the wildcard `*` (applies to every format of the section).
    public var payloadType: Int?
    /// The feedback type, such as `nack`, `ccm`, `goog-remb` or `transport-cc`.
    public var type: String
    /// The rest, such as `pli` or `fir`, when given.
    public var parameter: String?

    /// A feedback attribute.
    public init(payloadType: Int?, type: String, parameter: String? = nil) {
        self.payloadType = payloadType
        self.type = type
        self.parameter = parameter
    }

    /// Parses the attribute value; `nil` unless it is `<pt|*> <type>…`.
    public init?(attributeValue: some StringProtocol) {
        guard let (format, rest) = PayloadTyped.split(attributeValue), !rest.isEmpty else { return nil }
        let pt: Int?
        if format == "*" { pt = nil } else if let number = Int(format) { pt = number } else { return nil }
        if let space = rest.firstIndex(of: " ") {
            self.init(payloadType: pt, type: String(rest[..<space]), parameter: String(rest[rest.index(after: space)...]))
        } else {
            self.init(payloadType: pt, type: String(rest))
        }
    }

    /// The attribute value.
    public var attributeValue: String {
        let format = payloadType.map(String.init) ?? "*"
        return parameter.map { "\(format) \(type) \($0)" } ?? "\(format) \(type)"
    }
}
