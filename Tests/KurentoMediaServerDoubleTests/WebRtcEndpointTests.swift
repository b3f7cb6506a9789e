import Foundation
import PeerManager
import SDP
import TestSupport
import Testing

/// WebRtcEndpoint: SDP negotiation from PeerManager, KMS's SDP errors, trickle ICE, and the simulated media.
@Suite struct WebRtcEndpointTests {
    typealias JSON = RawKurentoClient.JSON

    /// A client (a PeerManager connection) with its offer, and an endpoint of the double.
    struct Call {
        let client: RawKurentoClient
        let pipeline: String
        let endpoint: String
        let peers = PeerManager()

        static func make(_ kms: KurentoMediaServerDouble) async throws -> Call {
            let client = try await RawKurentoClient.connect(kms.url)
            let pipeline = try await client.create("MediaPipeline")
            let endpoint = try await client.create("WebRtcEndpoint", ["mediaPipeline": pipeline])
            return Call(client: client, pipeline: pipeline, endpoint: endpoint)
        }

        func offer(_ direction: MediaDirection = .sendrecv) async throws -> String {
            try await peers.generateOffer(for: "me", media: .audioVideo(direction: direction))
        }

        /// The client's own host candidate, as it would trickle it.
        func candidate() async throws -> JSON {
            let candidate = try await peers.addHostCandidate(address: "127.0.0.1", port: 40000, for: "me")
            return ["candidate": candidate.candidate, "sdpMid": candidate.sdpMid ?? "", "sdpMLineIndex": candidate.sdpMLineIndex ?? 0]
        }
    }

    @Test func processOfferAnswersWithATrickleAnswerTheClientAcceptsAndOnlyOnce() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let call = try await Call.make(kms)
        let answer = try #require(try await call.client.invoke(call.endpoint, "processOffer", ["offer": try await call.offer()]) as? String)
        try await call.peers.processAnswer(answer, for: "me")
        let parsed = try SessionDescription(parsing: answer)
        #expect(parsed.media.count == 2)
        #expect(!answer.contains("a=candidate"))
        #expect(answer.contains("a=ice-options:trickle"))
        #expect(try await call.client.invoke(call.endpoint, "getLocalSessionDescriptor") as? String == answer)
        let again = try await call.client.error("invoke", [
            "object": call.endpoint, "operation": "processOffer", "operationParams": ["offer": try await call.offer()],
        ])
        #expect(again["code"] as? Int == 40208)
        #expect(again["message"] as? String == "Endpoint already negotiated")
        #expect(again["data"] as? [String: String] == ["type": "SDP_END_POINT_ALREADY_NEGOTIATED"])
    }

    @Test func aBadOfferIsAParseErrorThatLeavesTheEndpointUsable() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let call = try await Call.make(kms)
        for (offer, message) in [("", "Empty offer not valid"), ("SDP", "Invalid SDP")] {
            let error = try await call.client.error("invoke", [
                "object": call.endpoint, "operation": "processOffer", "operationParams": ["offer": offer],
            ])
            #expect(error["code"] as? Int == 40201)
            #expect(error["message"] as? String == message)
            #expect(error["data"] as? [String: String] == ["type": "SDP_PARSE_ERROR"])
        }
        #expect(try await call.client.invoke(call.endpoint, "processOffer", ["offer": try await call.offer()]) is String)
    }

    @Test func gatherCandidatesBeforeNegotiationNeverGathersAndAfterItTricklesOneCandidatePerTransport() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let call = try await Call.make(kms)
        for type in ["IceCandidateFound", "IceGatheringDone", "Error"] {
            _ = try await call.client.result("subscribe", ["object": call.endpoint, "type": type])
        }
        #expect(try await call.client.invoke(call.endpoint, "gatherCandidates") is NSNull)
        // A marker through the same (ordered) event queue: anything gathered would have come before it.
        kms.emitError(on: call.endpoint, description: "marker 1")
        try await call.client.awaitEvents("Error")
        let answer = try #require(try await call.client.invoke(call.endpoint, "processOffer", ["offer": try await call.offer()]) as? String)
        kms.emitError(on: call.endpoint, description: "marker 2")
        try await call.client.awaitEvents("Error", count: 2)
        #expect(call.client.events("IceCandidateFound").isEmpty)
        #expect(call.client.events("IceGatheringDone").isEmpty)
        #expect(kms.flowState(of: call.endpoint)?.gathered == false)

        #expect(try await call.client.invoke(call.endpoint, "gatherCandidates") is NSNull)
        try await call.client.awaitEvents("IceGatheringDone")
        let found = call.client.events("IceCandidateFound")
        #expect(found.count == 1)  // one BUNDLE group: one transport, on its first m-line
        let raw = try #require(call.client.received.first { $0.contains(#""type":"IceCandidateFound""#) })
        let envelope = try #require(RawKurentoClient.parse(raw))
        #expect(envelope.keys.sorted() == ["jsonrpc", "method", "params"])
        #expect(envelope["method"] as? String == "onEvent")
        let value = try #require((envelope["params"] as? JSON)?["value"] as? JSON)
        #expect(value.keys.sorted() == ["data", "object", "type"])
        #expect(value["object"] as? String == call.endpoint)
        let data = try #require(value["data"] as? JSON)
        #expect(data.keys.sorted() == ["candidate", "source", "tags", "timestampMillis", "type"])
        #expect(data["source"] as? String == call.endpoint)
        #expect((data["tags"] as? [Any])?.isEmpty == true)
        #expect((data["timestampMillis"] as? String)?.allSatisfy(\.isNumber) == true)
        let candidate = try #require(data["candidate"] as? JSON)
        #expect(candidate["__module__"] as? String == "kurento")
        #expect(candidate["__type__"] as? String == "IceCandidate")
        #expect(candidate["sdpMLineIndex"] as? Int == 0)
        let local = try SessionDescription(parsing: answer)
        #expect(candidate["sdpMid"] as? String == local.media[0].mid)
        let attribute = try #require(try IceCandidate(candidate: candidate["candidate"] as? String ?? "").parsed())
        #expect(attribute.address == "127.0.0.1")
        #expect(attribute.usernameFragment == local.effectiveIceUfrag(ofMediaAt: 0))
        // The candidate fits the client's view of the answer.
        try await call.peers.processAnswer(answer, for: "me")
        try await call.peers.addICECandidate(
            IceCandidate(candidate: attribute.description, sdpMid: candidate["sdpMid"] as? String, sdpMLineIndex: 0), for: "me")
        // Gathering happens once.
        #expect(try await call.client.invoke(call.endpoint, "gatherCandidates") is NSNull)
        kms.emitError(on: call.endpoint, description: "marker 3")
        try await call.client.awaitEvents("Error", count: 3)
        #expect(call.client.events("IceGatheringDone").count == 1)
    }

    @Test func remoteCandidatesAreValidatedAgainstTheRemoteDescription() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let call = try await Call.make(kms)
        _ = try await call.client.invoke(call.endpoint, "processOffer", ["offer": try await call.offer()])
        let refused = try await call.client.error("invoke", [
            "object": call.endpoint, "operation": "addIceCandidate",
            "operationParams": ["candidate": ["candidate": "candidate:1 1 udp 1 10.0.0.1 9 typ host", "sdpMid": "nope", "sdpMLineIndex": 7]],
        ])
        #expect(refused["code"] as? Int == 40401)
        #expect(refused["message"] as? String == "Error adding candidate")
        #expect(refused["data"] as? [String: String] == ["type": "ICE_ADD_CANDIDATE_ERROR"])
        let candidate = try await call.candidate()
        #expect(try await call.client.invoke(call.endpoint, "addIceCandidate", ["candidate": candidate]) is NSNull)
        var tagged = candidate
        tagged["__module__"] = "kurento"
        tagged["__type__"] = "IceCandidate"
        #expect(try await call.client.invoke(call.endpoint, "addIceCandidate", ["candidate": tagged]) is NSNull)
        let endOfCandidates: JSON = ["candidate": "", "sdpMid": "", "sdpMLineIndex": 0]
        #expect(try await call.client.invoke(call.endpoint, "addIceCandidate", ["candidate": endOfCandidates]) is NSNull)
        let remote = try #require(await kms.remoteDescription(of: call.endpoint))
        #expect(remote.serialized().contains(candidate["candidate"] as? String ?? "?"))
    }

    @Test func generateOfferThenProcessAnswerAndTheirOrderErrors() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let call = try await Call.make(kms)
        let early = try await call.client.error("invoke", [
            "object": call.endpoint, "operation": "processAnswer", "operationParams": ["answer": "v=0"],
        ])
        #expect(early["code"] as? Int == 40209)
        #expect(early["message"] as? String == "Offer not generated. It is not possible to process an answer.")
        let offer = try #require(try await call.client.invoke(call.endpoint, "generateOffer") as? String)
        #expect(try await call.client.error("invoke", ["object": call.endpoint, "operation": "generateOffer"])["code"] as? Int == 40208)
        let answer = try await call.peers.processOffer(offer, for: "me", policy: AnswerPolicy(trickle: true))
        let local = try #require(try await call.client.invoke(call.endpoint, "processAnswer", ["answer": answer]) as? String)
        #expect(try SessionDescription(parsing: local).media.count == 2)
        let twice = try await call.client.error("invoke", [
            "object": call.endpoint, "operation": "processAnswer", "operationParams": ["answer": answer],
        ])
        #expect(twice["code"] as? Int == 40210)
        #expect(twice["message"] as? String == "Sdp Answer already processed")
    }

    @Test func aCorruptedAnswerBreaksRFC3264AndTheClientRefusesIt() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let call = try await Call.make(kms)
        kms.corruptNextAnswer()
        let answer = try #require(try await call.client.invoke(call.endpoint, "processOffer", ["offer": try await call.offer()]) as? String)
        #expect(try SessionDescription(parsing: answer).media.count == 1)
        await #expect(throws: PeerManagerError.self) { try await call.peers.processAnswer(answer, for: "me") }
    }

    @Test func mediaFlowsOnceICEConnectsAndStopsWhenTheSourceGoes() async throws {
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let publisher = try await Call.make(kms)
        let subscriberEndpoint = try await publisher.client.create("WebRtcEndpoint", ["mediaPipeline": publisher.pipeline])
        let subscriber = Call(client: publisher.client, pipeline: publisher.pipeline, endpoint: subscriberEndpoint)
        let events = ["IceComponentStateChanged", "ConnectionStateChanged", "MediaStateChanged", "MediaSessionStarted",
                      "MediaFlowInStateChanged", "MediaFlowOutStateChanged", "ElementConnected"]
        for endpoint in [publisher.endpoint, subscriber.endpoint] {
            for type in events { _ = try await publisher.client.result("subscribe", ["object": endpoint, "type": type]) }
        }
        try await publisher.client.invoke(publisher.endpoint, "connect", ["sink": subscriber.endpoint])
        try await publisher.client.awaitEvents("ElementConnected", from: publisher.endpoint, count: 3)

        // The publisher sends audio and video; its ICE connects with its first remote candidate.
        _ = try await publisher.client.invoke(publisher.endpoint, "processOffer", ["offer": try await publisher.offer(.sendonly)])
        try await publisher.client.awaitEvents("MediaSessionStarted", from: publisher.endpoint)
        #expect(kms.flowState(of: publisher.endpoint)?.iceConnected == false)
        try await publisher.client.invoke(publisher.endpoint, "addIceCandidate", ["candidate": try await publisher.candidate()])
        let flowingIn = try await publisher.client.awaitEvents("MediaFlowInStateChanged", from: publisher.endpoint, count: 2)
        #expect(flowingIn.compactMap { ($0["data"] as? JSON)?["mediaType"] as? String } == ["AUDIO", "VIDEO"])
        #expect(flowingIn.allSatisfy { ($0["data"] as? JSON)?["state"] as? String == "FLOWING" })
        #expect(flowingIn.allSatisfy { ($0["data"] as? JSON)?["padName"] as? String == "default" })
        let media = try #require(publisher.client.events("MediaStateChanged", from: publisher.endpoint).first?["data"] as? JSON)
        #expect(media["oldState"] as? String == "DISCONNECTED" && media["newState"] as? String == "CONNECTED")
        #expect(publisher.client.events("IceComponentStateChanged", from: publisher.endpoint).count == 1)
        #expect(try await publisher.client.invoke(publisher.endpoint, "getMediaState") as? String == "CONNECTED")
        // Nothing goes back to the publisher: it sends only (and has no source).
        #expect(kms.flowState(of: publisher.endpoint)?.flowingOut == [])

        // The subscriber receives; once connected, the publisher's media flows out of it.
        _ = try await subscriber.client.invoke(subscriber.endpoint, "processOffer", ["offer": try await subscriber.offer(.recvonly)])
        try await subscriber.client.invoke(subscriber.endpoint, "addIceCandidate", ["candidate": try await subscriber.candidate()])
        let flowingOut = try await publisher.client.awaitEvents("MediaFlowOutStateChanged", from: subscriber.endpoint, count: 2)
        #expect(flowingOut.allSatisfy { ($0["data"] as? JSON)?["state"] as? String == "FLOWING" })
        #expect(try await publisher.client.invoke(subscriber.endpoint, "isMediaFlowingOut", ["mediaType": "VIDEO"]) as? Bool == true)
        #expect(try await publisher.client.invoke(subscriber.endpoint, "isMediaFlowingIn", ["mediaType": "VIDEO"]) as? Bool == false)

        // The source goes: the subscriber's media stops.
        _ = try await publisher.client.result("release", ["object": publisher.endpoint])
        let stopped = try await publisher.client.awaitEvents("MediaFlowOutStateChanged", from: subscriber.endpoint, count: 4)
        #expect(stopped.suffix(2).allSatisfy { ($0["data"] as? JSON)?["state"] as? String == "NOT_FLOWING" })
        #expect(kms.flowState(of: subscriber.endpoint)?.flowingOut == [])
    }
}
