/// An `a=rid:<id> <send|recv> [<restrictions>]` attribute (RFC 8851 §4).
public struct RTPStreamID: Hashable, Sendable, Codable {
    /// One `key=value` restriction; `pt` lists payload types.
    public struct Restriction: Hashable, Sendable, Codable {
        /// The restriction name, such as `max-width` or `pt`.
        public var name: String
        /// Its value, when given.
        public var value: String?

        /// A restriction `name[=value]`.
        public init(name: String, value: String? = nil) {
            self.name = name
            self.value = value
        }
    }

    /// The rid, an RFC 8851 `rid-id` (alphanumerics, `-` and `_`).
    public var id: String
    /// `send` or `recv`, seen from the side that wrote the description.
    public var direction: SimulcastDirection
    /// The restrictions in their original order, including `pt=`.
    public var restrictions: [Restriction]

    /// A rid with the given fields.
    public init(id: String, direction: SimulcastDirection, restrictions: [Restriction] = []) {
        self.id = id
        self.direction = direction
        self.restrictions = restrictions
    }

    /// The payload types named by the `pt=` restriction, if any.
    public var payloadTypes: [Int] {
        guard let list = restrictions.first(where: { $0.name == "pt" })?.value else { return [] }
        return list.split(separator: ",").compactMap { Int($0) }
    }

    /// Parses the attribute value; `nil` unless it has an id and a direction.
    public init?(attributeValue: some StringProtocol) {
        let parts = attributeValue.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let direction = SimulcastDirection(rawValue: String(parts[1])) else { return nil }
        let restrictions: [Restriction] = parts.count == 3
            ? parts[2].split(separator: ";").map { piece in
                guard let eq = piece.firstIndex(of: "=") else { return Restriction(name: String(piece)) }
                return Restriction(name: String(piece[..<eq]), value: String(piece[piece.index(after: eq)...]))
            }
            : []
        self.init(id: String(parts[0]), direction: direction, restrictions: restrictions)
    }

    /// The attribute value.
    public var attributeValue: String {
        let head = "\(id) \(direction.rawValue)"
        guard !restrictions.isEmpty else { return head }
        let list = restrictions.map { item in item.value.map { "\(item.name)=\($0)" } ?? item.name }
        return head + " " + list.joined(separator: ";")
    }
}

/// The `send`/`recv` direction words of rid and simulcast (RFC 8851, RFC 8853).
public enum SimulcastDirection: String, Hashable, Sendable, Codable {
    /// The writer sends this stream.
    case send
    /// The writer receives this stream.
    case recv

    /// The other side's view: send ↔ recv (docs/sdp-jsep.md#answer-details, answering simulcast).
    public var reversed: SimulcastDirection { self == .send ? .recv : .send }
}
