/// An `a=extmap:<id>[/<direction>] <uri> [<attributes>]` attribute (RFC 8285 §8).
public struct ExtMap: Hashable, Sendable, Codable {
    /// The extension id: 1–14 for one-byte headers, up to 255 for two-byte headers.
    public var id: Int
    /// The optional direction (`a=extmap:2/recvonly …`).
    public var direction: MediaDirection?
    /// The extension URI, such as `urn:ietf:params:rtp-hdrext:sdes:mid`.
    public var uri: String
    /// Extension attributes after the URI, as written (RFC 6904 puts the encrypted URI here).
    public var attributes: String?

    /// An extmap with the given fields.
    public init(id: Int, direction: MediaDirection? = nil, uri: String, attributes: String? = nil) {
        self.id = id
        self.direction = direction
        self.uri = uri
        self.attributes = attributes
    }

    /// Parses the attribute value; `nil` unless it starts with `<id>[/<direction>] <uri>`.
    public init?(attributeValue: some StringProtocol) {
        guard let (head, rest) = PayloadTyped.split(attributeValue), !rest.isEmpty else { return nil }
        let idAndDirection = head.split(separator: "/", omittingEmptySubsequences: false)
        guard let id = SDPGrammar.decimal(idAndDirection[0], as: Int.self), idAndDirection.count <= 2 else {
            return nil
        }
        var direction: MediaDirection?
        if idAndDirection.count == 2 {
            guard let parsed = MediaDirection(rawValue: String(idAndDirection[1])) else { return nil }
            direction = parsed
        }
        if let space = rest.firstIndex(of: " ") {
            self.init(id: id, direction: direction, uri: String(rest[..<space]),
                      attributes: String(rest[rest.index(after: space)...]))
        } else {
            self.init(id: id, direction: direction, uri: String(rest))
        }
    }

    /// The attribute value.
    public var attributeValue: String {
        var text = direction.map { "\(id)/\($0.rawValue) \(uri)" } ?? "\(id) \(uri)"
        if let attributes { text += " \(attributes)" }
        return text
    }
}
