public import RoomProtocol

/// One ICE candidate of a media endpoint, without the `endpointName` the wire adds (``MediaEndpointID`` knows it).
public struct MediaCandidate: Sendable, Hashable {
    /// The candidate line (`candidate:…`).
    public var candidate: String
    /// The media stream identification tag.
    public var sdpMid: String
    /// The index of the m-line the candidate belongs to.
    public var sdpMLineIndex: Int

    /// Creates a candidate.
    public init(candidate: String, sdpMid: String, sdpMLineIndex: Int) {
        self.candidate = candidate
        self.sdpMid = sdpMid
        self.sdpMLineIndex = sdpMLineIndex
    }

    /// The candidate a client trickled with `onIceCandidate`.
    public init(_ message: RoomIceCandidate) {
        self.init(candidate: message.candidate, sdpMid: message.sdpMid, sdpMLineIndex: message.sdpMLineIndex)
    }

    /// The `iceCandidate` notification params that carry this candidate of `endpoint` to its owner.
    public func message(for endpoint: MediaEndpointID) -> RoomIceCandidate {
        RoomIceCandidate(endpointName: endpoint.endpointName, candidate: candidate, sdpMid: sdpMid,
                         sdpMLineIndex: sdpMLineIndex)
    }
}
