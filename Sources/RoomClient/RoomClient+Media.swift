import JSONRPC
import Logging
public import PeerManager
public import RoomProtocol
import SDP
import SignalingSupport

/// The media through a `PeerManager` (docs/architecture.md#room-media): the offer, the room call, the answer and the
/// trickled candidates of each endpoint, which a bot would otherwise write around ``publishVideo(sdpOffer:loopback:)``
/// and ``receiveVideo(from:sdpOffer:streamId:)`` itself.
///
/// Once an endpoint is negotiated this way, the client adds the server's candidates for it (the
/// ``RoomEvent/iceCandidate(_:endpoint:)`` events, still published) to its PeerManager connection, in wire order, and
/// sends the local candidates that PeerManager reports for it (`addHostCandidate`, `addLocalCandidate`) with
/// ``sendICECandidate(_:for:)``. A subscription whose publisher stops publishing or leaves is forgotten (its
/// connection closed), and so is everything on leaving, eviction or the room's end. After a rejoin, without an
/// ``Configuration/offerProvider`` of its own, the client renegotiates through the same PeerManager
/// (``OfferProvider/init(peerManager:user:answered:)``).
extension RoomClient {
    /// The id of the PeerManager connection that negotiates `endpoint`: the endpoint's `endpointName`
    /// (docs/wire-protocol.md#room-requests): the local user's name for the publisher, the publisher's name for a
    /// subscription.
    public func mediaConnectionID(for endpoint: RoomEndpoint) -> String {
        endpoint.endpointName(ownName: room.username)
    }

    /// The users whose stream this client subscribed to through a PeerManager and still does.
    public var subscriptions: Set<String> { state.withLock { $0.media.subscribed } }

    /// Publishes the local stream negotiated by `media`: a send-only offer on the connection
    /// ``mediaConnectionID(for:)`` of ``/RoomProtocol/RoomEndpoint/publisher``, `publishVideo`, the answer applied; the
    /// candidates then flow on their own (see above). When the call fails, that connection is closed, so that
    /// publishing can be tried again.
    /// - Parameters:
    ///   - media: the PeerManager that makes the offers (one per client: a second one replaces the first for what
    ///     is negotiated later).
    ///   - loopback: whether the server sends the stream back to the publisher.
    /// - Throws: ``/RoomProtocol/RoomError``, ``/JSONRPC/RPCError``, or `PeerManagerError` when the answer does not fit.
    public func publish(using media: PeerManager, loopback: Bool = false) async throws {
        await bind(media)
        await mediaJobs.drain()  // a connection closed by an earlier unpublish is closed before the offer
        let id = mediaConnectionID(for: .publisher)
        state.withLock { $0.media.published = true }
        do {
            let offer = try await media.generateOffer(for: id, media: .audioVideo(direction: .sendonly))
            let answer = try await publishVideo(sdpOffer: offer, loopback: loopback)
            try await media.processAnswer(answer, for: id)
        } catch {
            state.withLock { $0.media.published = false }
            await media.closeConnection(id)
            throw error
        }
    }

    /// Subscribes to `peer`'s stream through `media`: a receive-only offer on the connection
    /// ``mediaConnectionID(for:)`` of ``/RoomProtocol/RoomEndpoint/subscriber(to:)``, `receiveVideoFrom`, the answer
    /// applied. Does nothing when already subscribed (``subscriptions``). When the call fails, the subscription is
    /// forgotten and its connection closed, so that it can be tried again.
    /// - Throws: as ``publish(using:loopback:)``.
    public func subscribe(to peer: Peer, using media: PeerManager) async throws {
        await bind(media)
        await mediaJobs.drain()  // a connection closed by an earlier unsubscribe is closed before the offer
        try await negotiateSubscription(to: peer, using: media)
    }

    /// ``subscribe(to:using:)`` without waiting for the media jobs (it runs in one, for ``subscribeToEveryone(using:)``).
    private func negotiateSubscription(to peer: Peer, using media: PeerManager) async throws {
        guard state.withLock({ $0.media.subscribed.insert(peer.identifier).inserted }) else { return }
        let id = mediaConnectionID(for: .subscriber(to: peer.identifier))
        do {
            let offer = try await media.generateOffer(for: id, media: .audioVideo(direction: .recvonly))
            let answer = try await receiveVideo(from: peer, sdpOffer: offer)
            try await media.processAnswer(answer, for: id)
        } catch {
            state.withLock { _ = $0.media.subscribed.remove(peer.identifier) }
            await media.closeConnection(id)
            throw error
        }
    }

    /// Subscribes through `media` to every participant that publishes: those publishing now, at once, and each
    /// later one when its ``RoomEvent/participantPublished(_:)`` arrives (a participant that stops and publishes
    /// again is subscribed to again). It lasts until the local user leaves, is evicted or the room closes. A later
    /// subscription that fails is reported as ``RoomEvent/mediaNegotiationFailed(_:_:)`` and logged.
    /// - Throws: the first failure among the participants publishing now (the others are still tried).
    public func subscribeToEveryone(using media: PeerManager) async throws {
        await bind(media)
        state.withLock { $0.media.subscribesToEveryone = true }
        var failure: (any Error)?
        for peer in peers where peer.isPublishing {
            do { try await subscribe(to: peer, using: media) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }

    /// Makes `media` the PeerManager of this client: its local candidates for the negotiated endpoints are sent from
    /// now on (subscribed to before any offer, so none is missed).
    func bind(_ media: PeerManager) async {
        guard state.withLock({ $0.media.peerManager !== media }) else { return }
        let local = await media.events()
        let forwarder = Task { [weak self] in
            do {
                for try await event in local {
                    guard case .localCandidate(let id, let candidate) = event, !candidate.candidate.isEmpty,
                          let self else { continue }
                    let endpoint = RoomEndpoint(endpointName: id, ownName: room.username)
                    guard state.withLock({ $0.media.negotiates(endpoint) }) else { continue }
                    do {
                        try await sendICECandidate(candidate, for: endpoint)
                    } catch {
                        logger.warning("cannot send a local candidate", metadata: ["endpoint": "\(endpoint)",
                                                                                    "error": "\(error)"])
                    }
                }
            } catch {
                self?.logger.warning("the PeerManager's events ended", metadata: ["error": "\(error)"])
            }
        }
        let replaced = state.withLock { s -> Task<Void, Never>? in
            let old = s.media.forwarder
            s.media.peerManager = media
            s.media.forwarder = forwarder
            return old
        }
        replaced?.cancel()
    }

    /// What the media does after `event` (called under the lock, in wire order, once the event is published): the
    /// server's candidates go to the PeerManager, a new publisher is subscribed to when subscribing to everyone, a
    /// stream that ended is forgotten.
    func followMedia(_ event: RoomEvent, _ s: inout State) {
        guard let media = s.media.peerManager else { return }
        switch event {
        case .iceCandidate(let candidate, let endpoint) where s.media.negotiates(endpoint):
            let id = mediaConnectionID(for: endpoint)
            mediaJobs.enqueue { [logger] in
                do { try await media.addICECandidate(candidate, for: id) } catch {
                    logger.warning("cannot add a server candidate", metadata: ["endpoint": "\(endpoint)",
                                                                                "error": "\(error)"])
                }
            }
        case .participantPublished(let peer) where s.media.subscribesToEveryone:
            mediaJobs.enqueue { [weak self] in
                do {
                    try await self?.negotiateSubscription(to: peer, using: media)
                } catch {
                    self?.logger.warning("cannot subscribe", metadata: ["user": "\(peer.identifier)", "error": "\(error)"])
                    self?.eventHub.publish(.mediaNegotiationFailed(.subscriber(to: peer.identifier), "\(error)"))
                }
            }
        case .participantUnpublished(let peer), .participantLeft(let peer):
            guard s.media.subscribed.remove(peer.identifier) != nil else { return }
            closeMedia([.subscriber(to: peer.identifier)], of: media)
        case .participantEvicted, .roomClosed:
            closeMedia(s.media.reset(), of: media)
        default:
            break
        }
    }

    /// Closes the PeerManager connections of `endpoints`, after the jobs before.
    func closeMedia(_ endpoints: [RoomEndpoint], of media: PeerManager) {
        guard !endpoints.isEmpty else { return }
        let ids = endpoints.map(mediaConnectionID(for:))
        mediaJobs.enqueue { for id in ids { await media.closeConnection(id) } }
    }
}
