/// An `a=group:<semantics> <mid> …` attribute (RFC 5888 §5), such as `BUNDLE` (RFC 9143) or `DUP`.
public struct MediaGroup: Hashable, Sendable, Codable {
    /// The semantics token, such as `BUNDLE`, `LS` or `DUP`.
    public var semantics: String
    /// The identification tags (`a=mid` values) of the grouped sections, in order. For BUNDLE the first is
    /// the tagged section (RFC 9143 §7.3).
    public var mids: [String]

    /// A group of `mids` with `semantics`.
    public init(semantics: String, mids: [String]) {
        self.semantics = semantics
        self.mids = mids
    }

    /// Parses the attribute value; `nil` when it is empty.
    public init?(attributeValue: some StringProtocol) {
        let parts = attributeValue.split(separator: " ")
        guard let first = parts.first else { return nil }
        self.init(semantics: String(first), mids: parts[1...].map { String($0) })
    }

    /// The attribute value.
    public var attributeValue: String { ([semantics] + mids).joined(separator: " ") }
}
