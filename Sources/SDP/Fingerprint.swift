/// A certificate fingerprint, `a=fingerprint:<hash-func> <HEX:HEX:…>` (RFC 8122 §5).
public struct Fingerprint: Hashable, Sendable, Codable {
    /// The hash function token, such as `sha-256`, as written.
    public var hashFunction: String
    /// The colon-separated hex digest, in the case it was written.
    public var value: String

    /// A fingerprint with the given hash function and digest.
    public init(hashFunction: String, value: String) {
        self.hashFunction = hashFunction
        self.value = value
    }

    /// Parses the attribute value; `nil` unless it is `<token> <digest>`.
    public init?(attributeValue: some StringProtocol) {
        let parts = attributeValue.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2 else { return nil }
        self.init(hashFunction: String(parts[0]), value: String(parts[1]))
    }

    /// The attribute value: `<hash-func> <digest>`.
    public var attributeValue: String { "\(hashFunction) \(value)" }
}
