/// Extension (docs/wire-protocol.md#compatibility): `sendPrivateMessage` params. The target alone gets
/// ``PrivateMessageNotification``; the sender gets no copy, and an unknown target is answered with 102.
public struct SendPrivateMessageParams: Codable, Sendable, Hashable {
    /// The target's user name.
    public var to: String
    /// The text.
    public var message: String

    /// Creates private-message params.
    public init(to: String, message: String) {
        self.to = to
        self.message = message
    }
}
