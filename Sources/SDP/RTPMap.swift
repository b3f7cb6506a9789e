/// An `a=rtpmap:<pt> <encoding>/<clock-rate>[/<channels>]` attribute (RFC 8866 §6.6).
public struct RTPMap: Hashable, Sendable, Codable {
    /// The RTP payload type, 0–127.
    public var payloadType: Int
    /// The encoding name as written, such as `opus` or `VP8`.
    public var encodingName: String
    /// The clock rate in Hz. Missing in some legacy SDP (`a=rtpmap:96 AppleLossless`).
    public var clockRate: Int?
    /// The encoding parameters (channel count for audio), when given.
    public var channels: Int?

    /// An rtpmap with the given fields.
    public init(payloadType: Int, encodingName: String, clockRate: Int?, channels: Int? = nil) {
        self.payloadType = payloadType
        self.encodingName = encodingName
        self.clockRate = clockRate
        self.channels = channels
    }

    /// Parses the attribute value; `nil` unless it starts with a numeric payload type and a name.
    public init?(attributeValue: some StringProtocol) {
        guard let (pt, rest) = PayloadTyped.split(attributeValue), let pt = Int(pt) else { return nil }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard let name = parts.first, !name.isEmpty else { return nil }
        let clock = parts.count > 1 ? SDPGrammar.decimal(parts[1], as: Int.self) : nil
        let channels = parts.count > 2 ? SDPGrammar.decimal(parts[2], as: Int.self) : nil
        guard parts.count < 2 || clock != nil, parts.count < 3 || channels != nil, parts.count <= 3 else {
            return nil
        }
        self.init(payloadType: pt, encodingName: String(name), clockRate: clock, channels: channels)
    }

    /// The attribute value.
    public var attributeValue: String {
        var text = "\(payloadType) \(encodingName)"
        if let clockRate { text += "/\(clockRate)" }
        if let channels { text += "/\(channels)" }
        return text
    }
}

/// Helpers for attribute values of the form `<pt> <rest>` (rtpmap, fmtp, rtcp-fb, imageattr).
enum PayloadTyped {
    /// Splits `value` at its first space into the format token and the rest.
    static func split<S: StringProtocol>(_ value: S) -> (Substring, Substring)? {
        let text = Substring(value)
        guard let space = text.firstIndex(of: " ") else { return nil }
        return (text[..<space], text[text.index(after: space)...])
    }
}
