import JSONRPC
import Logging
import RoomProtocol
import SignalingSupport

extension RoomClient {
    /// How long a rejoin waits for its name while the server answers 104 (a cluster frees the name of a dead
    /// node's participant within its node timeout, 5 s by default).
    static let nameReleaseWait = Duration.seconds(15)

    /// Rejoins after a reconnect into a fresh session (the server answered 40007, DESIGN §5), then restores the
    /// media; a 104 is retried for ``nameReleaseWait``. A rejoin cut short by another loss is retried by the next fresh session; a resumed one completes
    /// (its `joinRoom` is re-sent with its id, and the server's dedupe runs it once).
    func rejoin() async {
        guard let params = state.withLock({ $0.model.recovery.join }) else { return }
        let endpoints: [RoomEndpoint]
        var delay = Duration.milliseconds(250)
        var waited = Duration.zero
        while true {
            do {
                endpoints = try await request(.joinRoom(params)) { result, model in
                    if case .joined(let participants) = result { _ = model.join(participants) }
                    return model.endpointsToRenegotiate()
                }
                break
            } catch RPCError.connectionClosed {
                return
            } catch let error as RoomError where error.code == .existingUserInRoom && waited < Self.nameReleaseWait {
                // Rejoining on another node of a cluster: the node that died still holds the name until the
                // cluster notices (its node timeout). Try again shortly.
                logger.info("rejoin: the name is still taken; retrying", metadata: ["delay": "\(delay)"])
                do { try await configuration.clock.sleep(for: delay) } catch { return }
                waited += delay
                delay = min(delay * 2, .seconds(2))
            } catch {
                logger.warning("rejoin failed", metadata: ["error": "\(error)"])
                eventHub.publish(.recoveryFailed("cannot rejoin \(params.room) as \(params.user): \(error)"))
                return
            }
        }
        logger.info("rejoined the room", metadata: ["room": "\(params.room)"])
        state.withLock { s in
            s.reportedState = .rejoined
            eventHub.publish(.connectionStateChanged(.rejoined))
        }
        await renegotiate(endpoints)
    }

    /// Restores `endpoints` with the configured ``Configuration/offerProvider``, or asks for it.
    private func renegotiate(_ endpoints: [RoomEndpoint]) async {
        guard !endpoints.isEmpty else { return }
        guard let provider = configuration.offerProvider else {
            eventHub.publish(.renegotiationNeeded(endpoints))
            return
        }
        for endpoint in endpoints {
            do {
                let offer = try await provider.offer(endpoint)
                let answer: String
                switch endpoint {
                case .publisher:
                    let loopback = state.withLock { $0.model.recovery.publishLoopback } ?? false
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
