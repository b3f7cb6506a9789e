/// `unsubscribeFromVideo` params (docs/wire-protocol.md#room-requests). The result is empty: the Kurento doc's
/// `sdpAnswer` is wrong, and NBMRoomClient's reliance on it is bug 2 of docs/wire-protocol.md#room-client-bugs.
public struct UnsubscribeFromVideoParams: Codable, Sendable, Hashable {
    /// The stream to stop receiving, as `"<user>_<streamId>"` (see ``StreamSender``).
    public var sender: String

    /// Creates unsubscribe params.
    public init(sender: StreamSender) { self.sender = sender.wireValue }
}
