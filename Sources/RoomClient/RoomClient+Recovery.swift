import JSONRPC
import JSONRPCWebSocket
import Logging
import RoomProtocol
import SignalingSupport

extension RoomClient {
    /// Rejoin `round` after a reconnect into a fresh session (the server answered 40007), then the media; a 104
    /// is retried while ``RoomRecoveryMachine`` allows. A rejoin cut short by another loss is retried by the next
    /// fresh session; a resumed one completes (its `joinRoom` is re-sent with its id, and the server's dedupe runs
    /// it once).
    func rejoin(_ params: JoinRoomParams, round: Int) async {
        let endpoints: [RoomEndpoint]
        while true {
            do {
                endpoints = try await request(.joinRoom(params)) { result, s in
                    if case .joined(let participants) = result { _ = s.model.join(participants) }
                    // A resync reports what changed while the session missed its notifications.
                    let before = s.recovery.takeResyncBaseline()
                    for event in before.map({ PeersModel.differences(from: $0, to: s.model.peers) }) ?? [] {
                        s.recovery.observe(event)
                        self.eventHub.publish(event)
                    }
                    let model = s.model
                    let restored = s.recovery.rejoined { model.peer(withIdentifier: $0)?.isPublishing == true }
                    // Subscriptions through the PeerManager that are not restored (their publisher stopped) are
                    // forgotten, so that a later publication is subscribed to again.
                    let dropped = s.media.subscribed.filter { !restored.contains(.subscriber(to: $0)) }
                    s.media.subscribed.subtract(dropped)
                    if let media = s.media.peerManager {
                        self.closeMedia(dropped.sorted().map(RoomEndpoint.subscriber), of: media)
                    }
                    return restored
                }
                break
            } catch RPCError.connectionClosed {
                return
            } catch {
                let nameTaken = (error as? RoomError)?.code == .existingUserInRoom
                switch state.withLock({ $0.recovery.rejoinRefused(round: round, nameTaken: nameTaken) }) {
                case .stop:
                    return
                case .retry(let delay):
                    // Rejoining on another node of a cluster: the node that died still holds the name until the
                    // cluster notices (its node timeout). Try again shortly.
                    logger.info("rejoin: the name is still taken; retrying", metadata: ["delay": "\(delay)"])
                    do { try await configuration.clock.sleep(for: delay) } catch { return }
                    guard state.withLock({ $0.recovery.isRejoining(round: round) }) else { return }
                case .giveUp:
                    logger.warning("rejoin failed", metadata: ["error": "\(error)"])
                    eventHub.publish(.recoveryFailed("cannot rejoin \(params.room) as \(params.user): \(error)"))
                    return
                }
            }
        }
        logger.info("rejoined the room", metadata: ["room": "\(params.room)"])
        state.withLock { s in
            s.reportedState = .rejoined
            eventHub.publish(.connectionStateChanged(.rejoined))
        }
        await renegotiate(endpoints)
    }

    /// Resync `round` after a resume into a session whose server does not replay what it missed (stock Kurento,
    /// docs/wire-protocol.md#stock-kurento). The Room protocol has no call that lists the room without joining it, so
    /// the client leaves and joins again; the rejoin that succeeds reports the differences from the participants known
    /// when the resync began (who left, joined, published or stopped) as events, and restores the media. A stock
    /// server closes the socket after `leaveRoom`: the join then happens in the fresh session the client reconnects
    /// into (the 40007 path), with the same report.
    func resync(_ params: JoinRoomParams, round: Int) async {
        logger.info("resynchronizing the room: the server does not replay missed notifications",
                    metadata: ["room": "\(params.room)"])
        do {
            try await request(.leaveRoom) { _, s in s.model.reset() }
        } catch RPCError.connectionClosed {
            return
        } catch {
            // Not in the room any more there (it evicted us, or an earlier resync left): joining again is what is left.
            logger.info("resync: leaveRoom refused", metadata: ["error": "\(error)"])
            state.withLock { $0.model.reset() }
        }
        await rejoin(params, round: round)
    }

    /// Restores `endpoints` (after a rejoin, or a `mediaError` that dropped one) with the configured
    /// ``Configuration/offerProvider``, or asks for it.
    func renegotiate(_ endpoints: [RoomEndpoint]) async {
        guard !endpoints.isEmpty else { return }
        let bound = state.withLock { $0.media.peerManager }
        guard let provider = configuration.offerProvider
                ?? bound.map({ OfferProvider(peerManager: $0, user: room.username) }) else {
            eventHub.publish(.renegotiationNeeded(endpoints))
            return
        }
        for endpoint in endpoints {
            do {
                let offer = try await provider.offer(endpoint)
                let answer: String
                switch endpoint {
                case .publisher:
                    let loopback = state.withLock { $0.recovery.publishLoopback } ?? false
                    answer = try await publishVideo(sdpOffer: offer, loopback: loopback)
                case .subscriber(let user):
                    answer = try await receiveVideo(from: peer(withIdentifier: user) ?? Peer(identifier: user),
                                                    sdpOffer: offer)
                }
                try await provider.answer(endpoint, answer)
            } catch RPCError.connectionClosed {
                return
            } catch {
                logger.warning("renegotiation failed", metadata: ["endpoint": "\(endpoint)", "error": "\(error)"])
                eventHub.publish(.recoveryFailed("cannot renegotiate \(endpoint): \(error)"))
            }
        }
    }
}
