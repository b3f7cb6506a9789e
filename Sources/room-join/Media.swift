import PeerManager
import RoomClient
import RoomProtocol
import SDP

/// The SDP side of `--publish`, `--receive` and `--receive-all`: offers from a ``/PeerManager/PeerManager`` (no
/// real media is captured or sent), the server's answers applied, and its ICE candidates added.
struct Media {
    private let peerManager = PeerManager()
    /// Users whose stream is subscribed to.
    private(set) var subscribed: Set<String> = []
    /// Users whose publication this run has printed (in `joined`, or a `participantPublished` line): a subscription
    /// to a stream is made, and printed, only after its publication, in causal order, although the room's model may
    /// know of a publication before its event is read.
    private(set) var announced: Set<String> = []

    /// Notes what `peers` (the participants `joined` listed) publish.
    mutating func announce(_ peers: [Peer]) {
        for peer in peers where peer.isPublishing { announced.insert(peer.identifier) }
    }

    /// Notes a publication `event` printed, or its end.
    mutating func note(_ event: RoomEvent) {
        switch event {
        case .participantPublished(let peer): announced.insert(peer.identifier)
        case .participantUnpublished(let peer), .participantLeft(let peer): announced.remove(peer.identifier)
        default: break
        }
    }

    /// Publishes the local stream with a send-only offer and applies the answer.
    func publish(_ client: RoomClient) async throws {
        let offer = try await peerManager.generateOffer(for: Self.id(.publisher), media: .audioVideo(direction: .sendonly))
        let answer = try await client.publishVideo(sdpOffer: offer)
        try await peerManager.processAnswer(answer, for: Self.id(.publisher))
    }

    /// Subscribes to `peer`'s stream with a receive-only offer and applies the answer.
    mutating func receive(_ peer: Peer, _ client: RoomClient) async throws {
        let id = Self.id(.subscriber(to: peer.identifier))
        let offer = try await peerManager.generateOffer(for: id, media: .audioVideo(direction: .recvonly))
        subscribed.insert(peer.identifier)
        let answer = try await client.receiveVideo(from: peer, sdpOffer: offer)
        try await peerManager.processAnswer(answer, for: id)
    }

    /// Forgets the subscription to `user` (it unpublished or left), so a later publication is received again.
    mutating func forget(_ user: String) async {
        guard subscribed.remove(user) != nil else { return }
        await peerManager.closeConnection(Self.id(.subscriber(to: user)))
    }

    /// Adds a server candidate to the connection of `endpoint`.
    func add(_ candidate: IceCandidate, for endpoint: RoomEndpoint) async throws {
        try await peerManager.addICECandidate(candidate, for: Self.id(endpoint))
    }

    /// Fresh offers after a rejoin (the server lost the session, docs/architecture.md#room-recovery): the old
    /// connection of each endpoint is closed and a new offer made; the answer is applied to it, and `restored` is
    /// told. RoomClient calls it on its own.
    func offerProvider(restored: @escaping @Sendable (RoomEndpoint) -> Void) -> OfferProvider {
        let peerManager = peerManager
        return OfferProvider(offer: { endpoint in
            await peerManager.closeConnection(Self.id(endpoint))
            let direction: MediaDirection = endpoint == .publisher ? .sendonly : .recvonly
            return try await peerManager.generateOffer(for: Self.id(endpoint), media: .audioVideo(direction: direction))
        }, answer: { endpoint, answer in
            try await peerManager.processAnswer(answer, for: Self.id(endpoint))
            restored(endpoint)
        })
    }

    /// The PeerManager connection id of `endpoint`.
    private static func id(_ endpoint: RoomEndpoint) -> String {
        switch endpoint {
        case .publisher: "publisher"
        case .subscriber(let user): "subscriber:\(user)"
        }
    }
}
