import JSONRPC

/// KMS's `IceCandidate` complex type (Kurento/kurento `server/module-elements/src/server/interface/elements.WebRtcEndpoint.kmd.json`):
/// the candidate line, its media stream's `mid` and m-line index.
public struct IceCandidate: Sendable, Hashable, Codable {
    /// The candidate attribute (`candidate:…`); an empty string means the end of candidates.
    public var candidate: String
    /// The media stream identification tag.
    public var sdpMid: String
    /// The index of the m-line.
    public var sdpMLineIndex: Int

    /// Creates a candidate.
    public init(candidate: String, sdpMid: String, sdpMLineIndex: Int) {
        self.candidate = candidate
        self.sdpMid = sdpMid
        self.sdpMLineIndex = sdpMLineIndex
    }

    /// The wire form of `addIceCandidate`'s param: the members plus `__module__` and `__type__`, as
    /// kurento-client-js serializes complex types (Kurento/kurento-client-core-js `lib/complexTypes/ComplexType.js`;
    /// KMS accepts them with or without).
    var json: JSONValue {
        ["candidate": .string(candidate), "sdpMid": .string(sdpMid), "sdpMLineIndex": .int(sdpMLineIndex),
         "__module__": "kurento", "__type__": "IceCandidate"]
    }
}
