import JSONRPC
import KurentoClient
import SignalingSupport
import TestSupport
import Testing

/// The KMS session through drops and restarts (docs/kurento.md#sessions), and a slow KMS (docs/kurento.md#timeouts).
@Suite struct KurentoSessionTests {
    @Test func aDroppedConnectionResumesTheSessionAndKeepsItsObjects() async throws {
        let f = try KurentoFixture()
        defer { Task { await f.stop() } }
        let log = ConnectionLog(f.client)
        let pipeline = try await f.client.createMediaPipeline()
        let endpoint = try await pipeline.createWebRtcEndpoint()
        let session = f.client.sessionId
        f.kms.dropConnections()
        try await log.wait(for: "resumed") { $0 == .resumed }
        #expect(log.all.contains(.reconnecting))
        #expect(f.client.sessionId == session)
        // The objects survived in KMS: the endpoint answers on the new socket.
        let offer = try await KurentoFixture.offer()
        #expect(try await endpoint.processOffer(offer).hasPrefix("v=0"))
        #expect(f.client.liveObjects.count == 2)
        try await pipeline.release()
        #expect(f.kms.liveObjectCount == 0)
    }

    @Test func aRestartedKMSLosesTheSessionEndsTheStreamsAndANewSessionFollows() async throws {
        let f = try KurentoFixture()
        defer { Task { await f.stop() } }
        let log = ConnectionLog(f.client)
        let pipeline = try await f.client.createMediaPipeline()
        let endpoint = try await pipeline.createWebRtcEndpoint()
        let stream = try await endpoint.events(IceCandidateFound.self)
        let (oldSession, oldServer) = (f.client.sessionId, f.client.serverId)
        await f.kms.restart()
        try await log.wait(for: "sessionLost") { if case .sessionLost = $0 { true } else { false } }
        // The stream ends with the loss rather than waiting for events that will never come.
        do {
            for try await _ in stream {}
            Issue.record("the stream ended without an error")
        } catch {
            #expect(error is KurentoError)
        }
        #expect(f.client.liveObjects.isEmpty)
        try await log.wait(for: "a new session") {
            if case .connected(let session, let server) = $0 { session != oldSession && server != oldServer } else { false }
        }
        #expect(f.client.serverId == f.kms.serverId)
        // The new session works; the old objects are gone from the new KMS process.
        let fresh = try await f.client.createMediaPipeline()
        let gone = await kurentoError("an object of the old KMS process") { try await endpoint.gatherCandidates() }
        #expect(gone?.isObjectNotFound == true)
        try await fresh.release()
        #expect(f.kms.liveObjectCount == 0)
    }

    @Test func aCreateThatTimesOutIsReleasedWhenItsLateAnswerArrives() async throws {
        let f = try KurentoFixture(requestTimeout: .milliseconds(300), lateAnswerWindow: .seconds(20))
        defer { Task { await f.stop() } }
        try await f.client.connect()
        f.kms.delay(methods: ["create"], by: .seconds(1))
        let slow = await kurentoError("the slow create") { _ = try await f.client.createMediaPipeline() }
        guard case .timeout? = slow else {
            Issue.record("the slow create failed with \(String(describing: slow)), not a timeout")
            return
        }
        // KMS creates the pipeline a second later; the client releases it once the answer arrives.
        // (KMS counts a request when it reads it, before it applies it: wait for the release to be applied too)
        try await waitUntil("the late pipeline released", timeout: .seconds(10)) {
            f.kms.requestCounts.methods["release"] ?? 0 >= 1 && f.kms.liveObjectCount == 0
        }
        #expect(f.kms.requestCounts.methods["release"] == 1)
        #expect(f.client.liveObjects.isEmpty)
        f.kms.removeDelays()
        let pipeline = try await f.client.createMediaPipeline()
        #expect(f.kms.liveObjectCount == 1)
        try await pipeline.release()
    }

    @Test func aRefusedCreateIsKMSsTypedError() async throws {
        let f = try KurentoFixture()
        defer { Task { await f.stop() } }
        try await f.client.connect()
        f.kms.refuseCreates(1)
        let refusal = await kurentoError("the refused create") { _ = try await f.client.createMediaPipeline() }
        #expect(refusal?.code == .notEnoughResources)
        guard case .server(_, let message, let type)? = refusal else { return }
        #expect(message.contains("limit"))
        #expect(type == "NOT_ENOUGH_RESOURCES")
        let pipeline = try await f.client.createMediaPipeline()
        try await pipeline.release()
    }

    @Test func unknownAndMalformedMessagesFromKMSAreLoggedNotFatal() async throws {
        let f = try KurentoFixture()
        defer { Task { await f.stop() } }
        let pipeline = try await f.client.createMediaPipeline()
        let endpoint = try await pipeline.createWebRtcEndpoint()
        let errors = try await endpoint.events(ErrorEvent.self)
        f.kms.sendRaw(#"{"jsonrpc":"2.0","method":"onEvent","params":{"value":{"data":{},"object":"x","type":"Bogus"}}}"#)
        f.kms.sendRaw(#"{"jsonrpc":"2.0","method":"onEvent","params":{"value":"not an object"}}"#)
        f.kms.sendRaw(#"{"jsonrpc":"2.0","method":"somethingElse","params":{}}"#)
        f.kms.sendRaw(#"{"jsonrpc":"2.0","id":999999,"result":{"value":"nobody asked"}}"#)
        f.kms.sendRaw(#"{"jsonrpc":"2.0","method":"onEvent","params":{"value":{"data":{"wrong":1},"object":"\#(endpoint.id)","type":"Error"}}}"#)
        // An Error event of the right shape still arrives, after the garbage.
        f.kms.emitError(on: endpoint.id, description: "Error code 6: could not open", errorCode: 6,
                        type: "RESOURCE_ERROR_OPEN")
        let event = try await withDeadline(.seconds(10), "the Error event") {
            var iterator = errors.makeAsyncIterator()
            return try await iterator.next()
        }
        #expect(event?.errorCode == 6)
        #expect(event?.type == "RESOURCE_ERROR_OPEN")
        try await pipeline.release()
    }

    @Test func subscribersOfOneEventShareOneWireSubscription() async throws {
        let f = try KurentoFixture()
        defer { Task { await f.stop() } }
        let pipeline = try await f.client.createMediaPipeline()
        let endpoint = try await pipeline.createWebRtcEndpoint()
        let first = LockedValue(0), second = LockedValue(0)
        let a = try await endpoint.subscribe(ErrorEvent.self) { _ in first.withLock { $0 += 1 } }
        let b = try await endpoint.subscribe(ErrorEvent.self) { _ in second.withLock { $0 += 1 } }
        #expect(f.kms.subscriptionCount == 1)
        f.kms.emitError(on: endpoint.id, description: "boom", errorCode: 1, type: "UNEXPECTED_ELEMENT_ERROR")
        try await waitUntil("both subscribers") { first.withLock { $0 } == 1 && second.withLock { $0 } == 1 }
        await a.cancel()
        #expect(f.kms.subscriptionCount == 1)
        await b.cancel()
        try await waitUntil("the wire unsubscription") { f.kms.subscriptionCount == 0 }
        f.kms.emitError(on: endpoint.id, description: "after", errorCode: 1, type: "UNEXPECTED_ELEMENT_ERROR")
        // A round trip after the event: it would have been delivered before the answer if anyone still listened.
        _ = try await endpoint.invoke("getMediaState")
        #expect(first.withLock { $0 } == 1 && second.withLock { $0 } == 1)
        try await pipeline.release()
    }
}
