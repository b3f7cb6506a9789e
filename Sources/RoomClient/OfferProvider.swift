public import RoomProtocol

/// Fresh SDP offers for the media a rejoin must restore, and the place their answers go: set it as
/// ``RoomClient/Configuration/offerProvider`` to make republishing and resubscribing after a lost session
/// automatic (docs/architecture.md#room-recovery). Typically backed by a `PeerManager`: close the old peer connection,
/// generate a new offer, then process the answer.
public struct OfferProvider: Sendable {
    /// A fresh offer for `endpoint`: send-only for ``/RoomProtocol/RoomEndpoint/publisher``, receive-only for a
    /// subscription.
    public var offer: @Sendable (RoomEndpoint) async throws -> String
    /// The server's answer to that offer, to apply.
    public var answer: @Sendable (RoomEndpoint, String) async throws -> Void

    /// Creates a provider from its two steps.
    public init(offer: @escaping @Sendable (RoomEndpoint) async throws -> String,
                answer: @escaping @Sendable (RoomEndpoint, String) async throws -> Void) {
        self.offer = offer
        self.answer = answer
    }
}
