import JSONRPC
import KurentoClient
import Logging
import PeerManager
import RoomProtocol
import SDP
import SignalingSupport

/// Endpoints: one `WebRtcEndpoint` per publisher and per subscription (docs/kurento.md#backend).
extension KurentoMediaBackend {
    public func createPublisher(_ endpoint: MediaEndpointID, offer: String, loopback: Bool) async throws -> MediaAnswer {
        let answer = try await create(endpoint, offer: offer, flow: .inbound) { webRtc, _ in
            (before: loopback ? [webRtc.connectCall(to: webRtc)] : [], after: [])
        }
        if let object = newestObject(of: endpoint) {
            await recordPublisher(object, of: endpoint.owner, in: endpoint.scope, present: true)
        }
        return answer
    }

    public func createSubscriber(_ endpoint: MediaEndpointID, offer: String) async throws -> MediaAnswer {
        guard case .subscriber(let publisher) = endpoint.endpoint else {
            throw RoomError(.mediaEndpoint, message: "\(endpoint) is not a subscription")
        }
        let source = MediaEndpointID(room: endpoint.room, owner: publisher, endpoint: .publisher)
        return try await create(endpoint, offer: offer, flow: .outbound) { webRtc, pipeline throws(RoomError) in
            // The publisher's endpoint: this node's, or with a cluster the one another node recorded.
            var publisherEndpoint = self.newestObject(of: source)
            if publisherEndpoint == nil {
                publisherEndpoint = await self.sharedPublisher(publisher, of: endpoint.scope, pipeline: pipeline)
            }
            guard let publisherEndpoint, publisherEndpoint.client === webRtc.client else {
                throw RoomError(.mediaEndpoint, message: "\(publisher)'s media endpoint is not available")
            }
            return (before: [], after: [publisherEndpoint.connectCall(to: webRtc)])
        }
    }

    public func addCandidate(_ candidate: MediaCandidate, to endpoint: MediaEndpointID) async throws {
        guard let object = newestObject(of: endpoint) else {
            throw RoomError(.mediaWebRTCEndpoint, message: "\(endpoint.endpointName): no such media endpoint")
        }
        do {
            try await object.addIceCandidate(IceCandidate(candidate: candidate.candidate, sdpMid: candidate.sdpMid,
                                                          sdpMLineIndex: candidate.sdpMLineIndex),
                                             timeout: configuration.timeout)
        } catch {
            throw RoomError(.mediaWebRTCEndpoint,
                            message: "\(endpoint.endpointName): Kurento Media Server refused the candidate: \(error)")
        }
    }

    public func release(_ endpoint: MediaEndpointID) async {
        let (record, pipeline) = state.withLock { s -> (EndpointRecord?, MediaPipeline?) in
            guard var records = s.endpoints[endpoint], !records.isEmpty else { return (nil, nil) }
            let oldest = records.removeFirst()
            s.endpoints[endpoint] = records.isEmpty ? nil : records
            return (oldest, s.endUse(of: endpoint.scope))
        }
        if endpoint.endpoint == .publisher, let object = record?.object {
            await recordPublisher(object, of: endpoint.owner, in: endpoint.scope, present: false)
        }
        await releaseObject(record?.object, of: endpoint)
        if let pipeline { await release(pipeline, of: endpoint.scope) }
    }

    /// Creates `endpoint` in its scope's pipeline, then sends back to back: its subscriptions (candidates, errors,
    /// media flow in `flow`'s direction), `extra.before`, `processOffer`, `gatherCandidates`, `extra.after`. Checks
    /// KMS's answer against the offer (RFC 3264). Whatever fails releases what was created and throws a Room error.
    private func create(
        _ endpoint: MediaEndpointID, offer: String, flow: MediaFlow.Direction,
        extra: (WebRtcEndpoint, MediaPipeline) async throws(RoomError) -> (before: [KurentoCall], after: [KurentoCall])
    ) async throws(RoomError) -> MediaAnswer {
        let deadline = clock.now + configuration.timeout
        let creation = begin(endpoint)
        var created: WebRtcEndpoint?
        do {
            let pipeline = try await pipeline(for: endpoint.scope, before: deadline)
            let webRtc: WebRtcEndpoint
            do {
                webRtc = try await pipeline.createWebRtcEndpoint(timeout: remaining(until: deadline))
            } catch {
                if error.isObjectNotFound {
                    failScope(endpoint.scope, reason: "the media pipeline of the \(endpoint.scope) is gone from "
                        + "Kurento Media Server \(pipeline.client.name)", gone: pipeline)
                }
                throw roomError(error, while: "creating the media endpoint")
            }
            created = webRtc
            guard attach(webRtc, to: endpoint, creation: creation) else {
                throw RoomError(.mediaEndpoint, message: "\(endpoint.endpointName): the endpoint ended while it was created")
            }
            let (before, after) = try await extra(webRtc, pipeline)
            let calls = subscriptions(of: webRtc, for: endpoint, creation: creation, flow: flow) + before
                + [webRtc.processOfferCall(offer), webRtc.gatherCandidatesCall()] + after
            let offerIndex = calls.count - after.count - 2
            let outcomes: [KurentoCallOutcome]
            do {
                outcomes = try await webRtc.client.send(calls, timeout: remaining(until: deadline))
            } catch {
                throw roomError(error, while: "negotiating the media endpoint")
            }
            if let failure = outcomes[offerIndex].error {
                throw roomError(failure, while: "processing the offer", code: .mediaSDP)
            }
            if let failure = outcomes.lazy.compactMap(\.error).first {
                throw roomError(failure, while: "setting up the media endpoint")
            }
            let answer = try Self.checkedAnswer(outcomes[offerIndex], to: offer)
            return MediaAnswer(sdp: answer)
        } catch {
            await abandon(endpoint, creation: creation, object: created)
            throw error as? RoomError ?? roomError(error, while: "creating the media endpoint")
        }
    }

    /// The subscriptions of a new endpoint: candidates and errors, and the media flow it reports for operators.
    private func subscriptions(of webRtc: WebRtcEndpoint, for endpoint: MediaEndpointID, creation: UInt64,
                               flow: MediaFlow.Direction) -> [KurentoCall] {
        let report: @Sendable (MediaEvent) -> Void = { [weak self] event in
            guard let self, self.state.withLock({ $0.isCurrent(endpoint, creation) }) else { return }
            self.sinks.report(event)
        }
        let fail: @Sendable (ErrorEvent) -> Void = { [weak self] error in
            guard let self else { return }
            let current = self.state.withLock { s -> Bool in
                guard s.isCurrent(endpoint, creation) else { return false }
                return true
            }
            if current { self.sinks.report(.endpointFailed(endpoint, reason: Self.describe(error))) }
        }
        var calls: [KurentoCall] = [
            .subscribe(IceCandidateFound.self, on: webRtc) { found in
                report(.candidate(MediaCandidate(candidate: found.candidate.candidate, sdpMid: found.candidate.sdpMid,
                                                 sdpMLineIndex: found.candidate.sdpMLineIndex), of: endpoint))
            },
            .subscribe(ErrorEvent.self, on: webRtc, fail),
        ]
        switch flow {
        case .inbound:
            calls.append(.subscribe(MediaFlowInStateChanged.self, on: webRtc) { changed in
                report(.flow(endpoint, MediaFlow(direction: .inbound, kind: changed.mediaType.rawValue.lowercased(),
                                                 flowing: changed.state == .flowing)))
            })
        case .outbound:
            calls.append(.subscribe(MediaFlowOutStateChanged.self, on: webRtc) { changed in
                report(.flow(endpoint, MediaFlow(direction: .outbound, kind: changed.mediaType.rawValue.lowercased(),
                                                 flowing: changed.state == .flowing)))
            })
        }
        return calls
    }

    /// KMS's answer from `processOffer`'s outcome, checked against the offer (docs/sdp-jsep.md#answer-checks): an
    /// answer that breaks RFC 3264 is refused with 302 rather than handed to a browser.
    private static func checkedAnswer(_ outcome: KurentoCallOutcome, to offer: String) throws(RoomError) -> String {
        guard case .value(let value) = outcome, let answer = value.stringValue, !answer.isEmpty else {
            throw RoomError(.mediaSDP, message: "Kurento Media Server answered the offer without an SDP")
        }
        let offered: SessionDescription, answered: SessionDescription
        do {
            offered = try SessionDescription(parsing: offer)
            answered = try SessionDescription(parsing: answer)
        } catch {
            throw RoomError(.mediaSDP, message: "Kurento Media Server's SDP answer does not parse: \(error)")
        }
        if let violation = AnswerChecker.violations(offer: offered, answer: answered).first {
            throw RoomError(.mediaSDP,
                            message: "Kurento Media Server's SDP answer breaks RFC 3264 against the offer: \(violation)")
        }
        return answer
    }

    /// Registers a creation of `endpoint` (its scope gains a user, so its pipeline stays).
    private func begin(_ endpoint: MediaEndpointID) -> UInt64 {
        state.withLock { s in
            let creation = s.nextCreation
            s.nextCreation += 1
            s.endpoints[endpoint, default: []].append(EndpointRecord(creation: creation, kms: 0))
            s.scopes[endpoint.scope, default: ScopeRecord()].users += 1
            s.scopes[endpoint.scope]?.ended = false  // in use again
            return creation
        }
    }

    /// Records the KMS object of a creation; `false` when the creation is gone (its scope failed meanwhile).
    private func attach(_ object: WebRtcEndpoint, to endpoint: MediaEndpointID, creation: UInt64) -> Bool {
        state.withLock { s in
            guard let index = s.endpoints[endpoint]?.firstIndex(where: { $0.creation == creation }),
                  let kms = clients.firstIndex(where: { $0 === object.client }) else { return false }
            s.endpoints[endpoint]?[index] = EndpointRecord(creation: creation, kms: kms, object: object)
            return true
        }
    }

    /// Undoes a creation that failed: forgets it and releases what it created.
    private func abandon(_ endpoint: MediaEndpointID, creation: UInt64, object: WebRtcEndpoint?) async {
        let pipeline = state.withLock { s -> MediaPipeline? in
            guard let index = s.endpoints[endpoint]?.firstIndex(where: { $0.creation == creation }) else { return nil }
            s.endpoints[endpoint]?.remove(at: index)
            if s.endpoints[endpoint]?.isEmpty == true { s.endpoints[endpoint] = nil }
            return s.endUse(of: endpoint.scope)
        }
        await releaseObject(object, of: endpoint)
        if let pipeline { await release(pipeline, of: endpoint.scope) }
    }

    private func releaseObject(_ object: WebRtcEndpoint?, of endpoint: MediaEndpointID) async {
        guard let object else { return }
        do {
            try await object.release()
        } catch {
            logger.warning("media endpoint release failed", metadata: ["endpoint": "\(endpoint)", "error": "\(error)"])
        }
    }

    /// The KMS object of the newest creation of `endpoint`, once created.
    func newestObject(of endpoint: MediaEndpointID) -> WebRtcEndpoint? {
        state.withLock { $0.endpoints[endpoint]?.last(where: { $0.object != nil })?.object }
    }
}
