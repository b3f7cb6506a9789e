import JSONRPC
import Logging
import RoomProtocol

extension RoomServer {
    /// `publishVideo`: reserve the publisher endpoint, let the backend answer, then go live.
    func publish(_ params: PublishVideoParams, context: RPCRequestContext) async throws -> JSONValue {
        let endpoint = try registry.beginPublish(session: context.session)
        return try await create(endpoint, context: context) {
            try await self.media.createPublisher(endpoint, offer: params.sdpOffer, loopback: params.doLoopback)
        }
    }

    /// `receiveVideoFrom`: reserve the subscription, then let the backend answer.
    func receive(_ params: ReceiveVideoFromParams, context: RPCRequestContext) async throws -> JSONValue {
        let sender = try Self.sender(params.sender, method: .receiveVideoFrom)
        let endpoint = try registry.beginReceive(session: context.session, from: sender)
        return try await create(endpoint, context: context) {
            try await self.media.createSubscriber(endpoint, offer: params.sdpOffer)
        }
    }

    /// Creates a reserved endpoint at the backend; hands it the candidates queued meanwhile, and sends the
    /// server candidates to the owner before the answer (docs/wire-protocol.md#room: they may precede it). When the
    /// caller was told meanwhile that the request failed (docs/architecture.md#handler-deadlines), the endpoint is
    /// released and nobody hears of it.
    private func create(_ endpoint: MediaEndpointID, context: RPCRequestContext,
                        _ backendCall: () async throws -> MediaAnswer) async throws -> JSONValue {
        let session = context.session
        let answer: MediaAnswer
        do {
            answer = try await Self.media(backendCall)
        } catch {
            registry.abandonCreating(endpoint, session: session)
            throw error
        }
        let created: (queued: [MediaCandidate], flush: [SessionOutbox])
        switch registry.finishCreating(endpoint, session: session, claimed: context.claimCompletion) {
        case .created(let queued, let flush):
            created = (queued, flush)
        case .gone:
            // The participant left, or the publisher it subscribed to stopped, while the backend worked.
            await media.release(endpoint)
            throw RoomError(.mediaEndpoint,
                            message: "\(endpoint.endpointName): the endpoint ended while it was created")
        case .abandoned:
            await media.release(endpoint)
            throw RoomRegistry.abandoned
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
