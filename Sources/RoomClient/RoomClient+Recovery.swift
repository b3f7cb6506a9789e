import JSONRPC
import Logging
import RoomProtocol
import SignalingSupport

extension RoomClient {
    /// Rejoins after a reconnect into a fresh session (the server answered 40007, DESIGN §5), then restores the
    /// media. A rejoin cut short by another loss is retried by the next fresh session; a resumed one completes
    /// (its `joinRoom` is re-sent with its id, and the server's dedupe runs it once).
    func rejoin() async {
        guard let params = state.withLock({ $0.model.recovery.join }) else { return }
        let endpoints: [RoomEndpoint]
        do {
            endpoints = try await request(.joinRoom(params)) { result, model in
                if case .joined(let participants) = result { _ = model.join(participants) }
                return model.endpointsToRenegotiate()
            }
        } catch RPCError.connectionClosed {
            return
        } catch {
            logger.warning("rejoin failed", metadata: ["error": "\(error)"])
            eventHub.publish(.recoveryFailed("cannot rejoin \(params.room) as \(params.user): \(error)"))
            return
        }
        logger.info("rejoined the room", metadata: ["room": "\(params.room)"])
        eventHub.publish(.connectionStateChanged(.rejoined))
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
