/// A `c=` line (RFC 8866 §5.7): `nettype addrtype connection-address`.
public struct Connection: Hashable, Sendable, Codable {
    /// The network type, normally `IN`.
    public var netType: String
    /// The address type, normally `IP4` or `IP6`.
    public var addrType: String
    /// The address as written, including any multicast `/ttl/count` suffix.
    public var address: String

    /// A connection with the given fields.
    public init(netType: String = "IN", addrType: String = "IP4", address: String) {
        self.netType = netType
        self.addrType = addrType
        self.address = address
    }

    /// Parses the line value; `nil` unless it has exactly three fields.
    public init?(lineValue: some StringProtocol) {
        let fields = SDPGrammar.fields(lineValue)
        guard fields.count == 3, !fields.contains(where: \.isEmpty) else { return nil }
        self.init(netType: String(fields[0]), addrType: String(fields[1]), address: String(fields[2]))
    }

    /// The line value.
    public var lineValue: String { "\(netType) \(addrType) \(address)" }
}
