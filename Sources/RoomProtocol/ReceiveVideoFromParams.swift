/// `receiveVideoFrom` params (docs/wire-protocol.md#room-requests).
public struct ReceiveVideoFromParams: Codable, Sendable, Hashable {
    /// The stream to receive, as `"<user>_<streamId>"`; ``StreamSender`` parses and builds it.
    public var sender: String
    /// The client's SDP offer for the subscription.
    public var sdpOffer: String

    /// Creates receive params.
    public init(sender: StreamSender, sdpOffer: String) {
        self.sender = sender.wireValue
        self.sdpOffer = sdpOffer
    }
}
