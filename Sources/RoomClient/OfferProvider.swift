public import PeerManager
public import RoomProtocol
import SDP

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

extension OfferProvider {
    /// The provider of a `PeerManager` whose connections are named as ``RoomClient/mediaConnectionID(for:)`` names
    /// them for the local user `user`: the old connection of the endpoint is closed and a fresh offer made (send-only
    /// for the publisher, receive-only for a subscription); the answer is applied to it, then `answered` is told. A
    /// client that negotiated through a PeerManager (``RoomClient/publish(using:loopback:)``) uses it on its own
    /// when its configuration names no provider.
    public init(peerManager: PeerManager, user: String, answered: (@Sendable (RoomEndpoint) -> Void)? = nil) {
        self.init(offer: { endpoint in
            let id = endpoint.endpointName(ownName: user)
            await peerManager.closeConnection(id)
            let direction: MediaDirection = endpoint == .publisher ? .sendonly : .recvonly
            return try await peerManager.generateOffer(for: id, media: .audioVideo(direction: direction))
        }, answer: { endpoint, answer in
            try await peerManager.processAnswer(answer, for: endpoint.endpointName(ownName: user))
            answered?(endpoint)
        })
    }
}
