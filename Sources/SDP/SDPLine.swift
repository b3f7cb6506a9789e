/// One `<type>=<value>` line of a session description (RFC 8866 §5).
///
/// The model keeps every line that is not an `m=` line in this form, in its original order, so that unknown
/// attributes and lines survive a parse → serialize round trip unchanged (RFC 8866 §5: unknown attributes
/// "MUST be ignored", which for a relay means "kept"). Typed accessors read and write these lines.
public struct SDPLine: Hashable, Sendable, CustomStringConvertible {
    /// The one-character type, such as `a`, `c` or `b`. Case-significant.
    public var type: Character
    /// Everything after `=`, byte for byte (a leading space belongs to the value, RFC 8866 §5).
    public var value: String

    /// A line with the given type and value.
    public init(type: Character, value: String) {
        self.type = type
        self.value = value
    }

    /// An `a=` line carrying `attribute`.
    public init(_ attribute: SDPAttribute) {
        self.type = "a"
        self.value = attribute.value.map { "\(attribute.name):\($0)" } ?? attribute.name
    }

    /// The attribute of an `a=` line, split at the first colon; `nil` for other line types.
    ///
    /// RFC 8866 §5.13: only the first colon separates name and value (`a=fingerprint` and `a=candidate`
    /// values contain colons themselves).
    public var attribute: SDPAttribute? {
        guard type == "a" else { return nil }
        guard let colon = value.utf8.firstIndex(of: UInt8(ascii: ":")) else {
            return SDPAttribute(name: value, value: nil)
        }
        // Split on bytes so that a combining mark after the colon stays in the value.
        let utf8 = value.utf8
        return SDPAttribute(
            name: String(Substring(utf8[..<colon])), value: String(Substring(utf8[utf8.index(after: colon)...])))
    }

    /// The value of an `a=name:value` line whose name is `name`, without allocating the name.
    func attributeValue(ifNamed name: String) -> Substring? {
        guard type == "a", value.utf8.starts(with: name.utf8) else { return nil }
        let rest = value.utf8.dropFirst(name.utf8.count)
        guard rest.first == UInt8(ascii: ":") else { return nil }
        return Substring(rest.dropFirst())
    }

    /// `true` when this is the property attribute `a=name` or a value attribute `a=name:…`.
    func isAttribute(named name: String) -> Bool {
        guard type == "a", value.utf8.starts(with: name.utf8) else { return false }
        let rest = value.utf8.dropFirst(name.utf8.count)
        return rest.isEmpty || rest.first == UInt8(ascii: ":")
    }

    /// The line as written in SDP, without the line ending: `type=value`.
    public var description: String { "\(type)=\(value)" }
}
