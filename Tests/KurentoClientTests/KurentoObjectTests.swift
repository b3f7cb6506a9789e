import JSONRPC
import KurentoClient
import SignalingSupport
import TestSupport
import Testing

/// Pipelines and WebRTC endpoints as KMS makes them (docs/kurento.md#objects), against the double.
@Suite struct KurentoObjectTests {
    @Test func connectOpensASessionThatEveryRequestCarries() async throws {
        let f = try KurentoFixture()
        defer { Task { await f.stop() } }
        try await f.client.connect()
        let session = try #require(f.client.sessionId)
        #expect(f.client.serverId == f.kms.serverId)
        let pipeline = try await f.client.createMediaPipeline()
        #expect(pipeline.id.hasSuffix("_kurento.MediaPipeline"))
        // The double only lists a session once an object was made in it: ours, not one KMS made up per request.
        #expect(f.kms.sessions == [session])
        try await pipeline.release()
    }

    @Test func anEndpointAnswersAnOfferAndTricklesItsCandidatesAfterGathering() async throws {
        let f = try KurentoFixture()
        defer { Task { await f.stop() } }
        let pipeline = try await f.client.createMediaPipeline()
        let endpoint = try await pipeline.createWebRtcEndpoint()
        #expect(endpoint.id.hasPrefix(pipeline.id + "/"))
        #expect(endpoint.pipelineId == pipeline.id)
        let candidates = try await endpoint.events(IceCandidateFound.self)
        let done = try await endpoint.events(IceGatheringDone.self)
        let answer = try await endpoint.processOffer(try await KurentoFixture.offer())
        #expect(answer.hasPrefix("v=0"))
        try await endpoint.gatherCandidates()
        let first = try await withDeadline(.seconds(10), "IceCandidateFound") {
            var iterator = candidates.makeAsyncIterator()
            return try await iterator.next()
        }
        #expect(first?.source == endpoint.id)
        #expect(first?.candidate.candidate.hasPrefix("candidate:") == true)
        let gathered = try await withDeadline(.seconds(10), "IceGatheringDone") {
            var iterator = done.makeAsyncIterator()
            return try await iterator.next()
        }
        #expect(gathered?.source == endpoint.id)
        // The second offer of an endpoint is refused as KMS refuses it.
        let second = try await KurentoFixture.offer()
        let refusal = await kurentoError("a second offer") { _ = try await endpoint.processOffer(second) }
        #expect(refusal?.code == .sdpAlreadyNegotiated)
        try await pipeline.release()
    }

    @Test func releasingAPipelineReleasesItsElementsAndTheirSubscriptions() async throws {
        let f = try KurentoFixture()
        defer { Task { await f.stop() } }
        let pipeline = try await f.client.createMediaPipeline()
        let publisher = try await pipeline.createWebRtcEndpoint()
        let subscriber = try await pipeline.createWebRtcEndpoint()
        try await publisher.connect(to: subscriber)
        let stream = try await subscriber.events(MediaFlowOutStateChanged.self)
        #expect(f.kms.liveObjectCount == 3)
        #expect(f.client.liveObjects.count == 3)
        #expect(f.client.livePipelineCount == 1)
        try await pipeline.release()
        #expect(f.kms.liveObjectCount == 0)
        #expect(f.client.liveObjects.isEmpty)
        // The stream of a released object ends normally.
        let ended = try await withDeadline(.seconds(5), "the stream's end") {
            var iterator = stream.makeAsyncIterator()
            return try await iterator.next()
        }
        #expect(ended == nil)
        // The released id is gone (40101), and releasing it again is not an error.
        let gone = await kurentoError("a released endpoint") { try await subscriber.gatherCandidates() }
        #expect(gone?.isObjectNotFound == true)
        try await pipeline.release()
    }

    @Test func elementsOfDifferentPipelinesCannotBeConnected() async throws {
        let f = try KurentoFixture()
        defer { Task { await f.stop() } }
        let a = try await f.client.createMediaPipeline()
        let b = try await f.client.createMediaPipeline()
        let source = try await a.createWebRtcEndpoint()
        let sink = try await b.createWebRtcEndpoint()
        let refusal = await kurentoError("a connect across pipelines") { try await source.connect(to: sink) }
        #expect(refusal?.code == .connectError)
        try await a.release()
        try await b.release()
        #expect(f.kms.liveObjectCount == 0)
    }

    @Test func anObjectAnotherClientMadeIsUsedByItsId() async throws {
        let f = try KurentoFixture()
        defer { Task { await f.stop() } }
        let other = KurentoClient(url: f.kms.url, configuration: .init(heartbeat: nil))
        let pipeline = try await f.client.createMediaPipeline()
        // Another process (here another client, another session) creates an endpoint in that pipeline by its id.
        let foreign = try await other.mediaPipeline(id: pipeline.id).createWebRtcEndpoint()
        let mine = f.client.webRtcEndpoint(id: foreign.id)
        let offer = try await KurentoFixture.offer()
        _ = try await mine.processOffer(offer)
        #expect(other.sessionId != f.client.sessionId)
        try await pipeline.release()
        #expect(f.kms.liveObjectCount == 0)
        await other.close()
    }

    @Test func pipelinedCallsGoOutInOrderAndEachCompletes() async throws {
        let f = try KurentoFixture()
        defer { Task { await f.stop() } }
        let pipeline = try await f.client.createMediaPipeline()
        let endpoint = try await pipeline.createWebRtcEndpoint()
        let found = LockedValue<[IceCandidateFound]>([])
        let offer = try await KurentoFixture.offer()
        let outcomes = try await f.client.send([
            .subscribe(IceCandidateFound.self, on: endpoint) { event in found.withLock { $0.append(event) } },
            endpoint.processOfferCall(offer),
            endpoint.gatherCandidatesCall(),
            .invoke(endpoint, "noSuchOperation"),
            .invoke(endpoint, "getMediaState"),
        ])
        #expect(outcomes.count == 5)
        #expect(outcomes[0].subscription != nil)
        #expect(try outcomes[1].get().stringValue?.hasPrefix("v=0") == true)
        #expect(try outcomes[2].get() == .null)
        // KMS answers an unknown operation with 40008 (its generated invoke reuses MALFORMED_TRANSACTION); the
        // calls after it still complete.
        #expect(outcomes[3].error?.code == .malformedTransaction)
        #expect(outcomes[4].error == nil)
        // The subscription was in place before gathering, so no candidate was missed.
        try await waitUntil("a candidate") { !found.withLock { $0 }.isEmpty }
        try await pipeline.release()
    }
}
