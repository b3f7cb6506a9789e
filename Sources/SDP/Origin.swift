/// The `o=` line (RFC 8866 §5.2): `username sess-id sess-version nettype addrtype unicast-address`.
public struct Origin: Hashable, Sendable, Codable {
    /// The user name, `-` when there is none.
    public var username: String
    /// The session id. JSEP keeps it below 2^63; 19-digit values occur (docs/sdp-jsep.md#real-world-sdp, item 15).
    public var sessionID: UInt64
    /// The session version, incremented on each new local description (JSEP §5.2.2).
    public var sessionVersion: UInt64
    /// The network type, normally `IN`.
    public var netType: String
    /// The address type, normally `IP4` or `IP6`.
    public var addrType: String
    /// The unicast address or host name.
    public var address: String

    /// An origin with the given fields.
    public init(
        username: String = "-", sessionID: UInt64, sessionVersion: UInt64, netType: String = "IN",
        addrType: String = "IP4", address: String = "0.0.0.0"
    ) {
        self.username = username
        self.sessionID = sessionID
        self.sessionVersion = sessionVersion
        self.netType = netType
        self.addrType = addrType
        self.address = address
    }

    /// Parses the line value; `nil` unless it has the six fields with numeric ids.
    public init?(lineValue: some StringProtocol) {
        let fields = SDPGrammar.fields(lineValue)
        guard fields.count == 6, !fields.contains(where: \.isEmpty),
            let id = SDPGrammar.decimal(fields[1], as: UInt64.self),
            let version = SDPGrammar.decimal(fields[2], as: UInt64.self)
        else { return nil }
        self.init(
            username: String(fields[0]), sessionID: id, sessionVersion: version, netType: String(fields[3]),
            addrType: String(fields[4]), address: String(fields[5]))
    }

    /// The line value, fields separated by single spaces.
    public var lineValue: String {
        "\(username) \(sessionID) \(sessionVersion) \(netType) \(addrType) \(address)"
    }
}
