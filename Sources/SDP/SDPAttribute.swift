/// An SDP attribute: `a=name` (a property attribute) or `a=name:value` (a value attribute), RFC 8866 §5.13.
public struct SDPAttribute: Hashable, Sendable, CustomStringConvertible {
    /// The attribute name, such as `rtpmap` or `ice-lite`. Case-significant.
    public var name: String
    /// The text after the first colon, or `nil` for a property attribute.
    public var value: String?

    /// An attribute with the given name and optional value.
    public init(name: String, value: String? = nil) {
        self.name = name
        self.value = value
    }

    /// The attribute as written after `a=`.
    public var description: String { value.map { "\(name):\($0)" } ?? name }
}
