/// An `a=msid:<stream-id> [<track-id>]` attribute (RFC 8830 §2); `-` as the stream id means "no stream".
public struct MediaStreamID: Hashable, Sendable, Codable {
    /// The MediaStream id, `-` for none.
    public var streamID: String
    /// The track id (the "appdata"), when given.
    public var trackID: String?

    /// An msid with the given ids.
    public init(streamID: String, trackID: String? = nil) {
        self.streamID = streamID
        self.trackID = trackID
    }

    /// Parses the attribute value; `nil` when it is empty or has more than two fields.
    public init?(attributeValue: some StringProtocol) {
        let parts = attributeValue.split(separator: " ")
        guard (1...2).contains(parts.count) else { return nil }
        self.init(streamID: String(parts[0]), trackID: parts.count == 2 ? String(parts[1]) : nil)
    }

    /// The attribute value.
    public var attributeValue: String { trackID.map { "\(streamID) \($0)" } ?? streamID }
}
