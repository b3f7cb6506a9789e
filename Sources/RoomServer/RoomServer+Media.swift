import JSONRPC
import Logging
import RoomProtocol

extension RoomServer {
    /// `publishVideo`: reserve the publisher endpoint, let the backend answer, then go live.
    func publish(_ params: PublishVideoParams, session: ServerSession) async throws -> JSONValue {
        let endpoint = try registry.beginPublish(session: session)
        return try await create(endpoint, session: session) {
            try await self.media.createPublisher(endpoint, offer: params.sdpOffer, loopback: params.doLoopback)
        }
    }

    /// `receiveVideoFrom`: reserve the subscription, then let the backend answer.
    func receive(_ params: ReceiveVideoFromParams, session: ServerSession) async throws -> JSONValue {
        let sender = try Self.sender(params.sender, method: .receiveVideoFrom)
        let endpoint = try registry.beginReceive(session: session, from: sender)
        return try await create(endpoint, session: session) {
            try await self.media.createSubscriber(endpoint, offer: params.sdpOffer)
        }
    }

    /// Creates a reserved endpoint at the backend; hands it the candidates queued meanwhile, and sends the
    /// server candidates to the owner before the answer (docs/wire-protocol.md#room: they may precede it).
    private func create(_ endpoint: MediaEndpointID, session: ServerSession,
                        _ backendCall: () async throws -> MediaAnswer) async throws -> JSONValue {
        let answer: MediaAnswer
        do {
            answer = try await Self.media(backendCall)
        } catch {
            registry.abandonCreating(endpoint, session: session)
            throw error
        }
        guard let created = registry.finishCreating(endpoint, session: session) else {
            // The participant left, or the publisher it subscribed to stopped, while the backend worked.
            await media.release(endpoint)
            throw RoomError(.mediaEndpoint,
                            message: "\(endpoint.endpointName): the endpoint ended while it was created")
        }
        for candidate in created.queued {
            // Its onIceCandidate was answered when it was queued: a refusal now must not fail this call.
            do {
                try await media.addCandidate(candidate, to: endpoint)
            } catch {
                logger.info("queued candidate refused", metadata: ["endpoint": "\(endpoint)", "error": "\(error)"])
            }
        }
        flush(created.flush + [registry.deliver(answer.candidates, of: endpoint)])
        if endpoint.endpoint == .publisher { await markPublishing(true, endpoint.owner, in: endpoint.room) }
        return RoomResult.sdpAnswer(answer.sdp).json
    }
}
