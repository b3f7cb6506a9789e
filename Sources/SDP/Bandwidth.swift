/// A `b=<bwtype>:<bandwidth>` line (RFC 8866 §5.8).
///
/// Units depend on the type: `AS` and `CT` are kbit/s, `TIAS` (RFC 3890), `RR` and `RS` (RFC 3556) bit/s.
public struct Bandwidth: Hashable, Sendable, Codable {
    /// The bandwidth type token as written, such as `AS` or `TIAS`.
    public var type: String
    /// The bandwidth value in the type's unit.
    public var value: UInt64

    /// A bandwidth line of `type` with `value`.
    public init(type: String, value: UInt64) {
        self.type = type
        self.value = value
    }

    /// Parses the line value; `nil` unless it is `<token>:<digits>`.
    public init?(lineValue: some StringProtocol) {
        guard let colon = lineValue.firstIndex(of: ":") else { return nil }
        let type = lineValue[..<colon]
        guard !type.isEmpty, type.utf8.allSatisfy(SDPGrammar.isTokenChar),
            let value = SDPGrammar.decimal(lineValue[lineValue.index(after: colon)...], as: UInt64.self)
        else { return nil }
        self.init(type: String(type), value: value)
    }

    /// The line value: `<bwtype>:<bandwidth>`.
    public var lineValue: String { "\(type):\(value)" }
}
