/// An `a=fmtp:<format> <parameters>` attribute (RFC 8866 §6.15).
public struct FormatParameters: Hashable, Sendable, Codable {
    /// The format (payload type) the parameters apply to.
    public var payloadType: Int
    /// The parameter text as written, such as `minptime=10;useinbandfec=1` or `0-15`.
    public var parameters: String

    /// Parameters for `payloadType`.
    public init(payloadType: Int, parameters: String) {
        self.payloadType = payloadType
        self.parameters = parameters
    }

    /// Parses the attribute value; `nil` unless it starts with a numeric payload type.
    public init?(attributeValue: some StringProtocol) {
        guard let (pt, rest) = PayloadTyped.split(attributeValue), let pt = Int(pt) else { return nil }
        self.init(payloadType: pt, parameters: String(rest))
    }

    /// The `key=value` pairs, split at `;` with surrounding spaces trimmed (`minptime=10; useinbandfec=1`
    /// is common, docs/sdp-jsep.md#real-world-sdp, item 2). A parameter without `=` has a `nil` value.
    public var pairs: [(key: String, value: String?)] {
        parameters.split(separator: ";").compactMap { piece in
            let trimmed = piece.drop(while: { $0 == " " })
            guard !trimmed.isEmpty else { return nil }
            guard let eq = trimmed.firstIndex(of: "=") else { return (String(trimmed), nil) }
            return (String(trimmed[..<eq]), String(trimmed[trimmed.index(after: eq)...]))
        }
    }

    /// The value of parameter `key`, such as `apt` for RTX (RFC 4588).
    public func value(for key: String) -> String? {
        pairs.first { $0.key == key }?.value ?? nil
    }

    /// The attribute value.
    public var attributeValue: String { "\(payloadType) \(parameters)" }
}
