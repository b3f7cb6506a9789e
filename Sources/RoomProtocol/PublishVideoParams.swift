/// `publishVideo` params (docs/wire-protocol.md#room-requests).
public struct PublishVideoParams: Codable, Sendable, Hashable {
    /// The client's SDP offer.
    public var sdpOffer: String
    /// Whether the server should loop the stream back to the publisher. **Required**: a Kurento server answers
    /// -1 when it is missing (and the Kurento doc example wrongly puts it outside `params`).
    public var doLoopback: Bool

    /// Creates publish params.
    public init(sdpOffer: String, doLoopback: Bool) {
        self.sdpOffer = sdpOffer
        self.doLoopback = doLoopback
    }
}
