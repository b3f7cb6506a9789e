import Foundation
import JSONRPC
import PeerManager
import RoomProtocol
import RoomServer
import SDP
import Testing
import TestSupport

/// The media exchange of docs/wire-protocol.md#room through a ``RoomServer`` with the real ``SimulatedMediaBackend``:
/// answers are real SDP, server candidates arrive as `iceCandidate` notifications, client candidates reach the
/// endpoints.
@Suite struct SimulatedMediaFlowTests {
    let media = SimulatedMediaBackend()
    let server: RoomServer

    init() { server = RoomServer(configuration: .init(media: media)) }

    /// Parses the `sdpAnswer` of `result`, checks it against `offer`, and reads the owner's `iceCandidate`
    /// notifications for it: one per transport, named `endpointName`, on the answer's mids and ufrag.
    static func answer(_ result: JSONValue, offer: String, peer: RoomPeer, endpointName: String) async throws
        -> SessionDescription
    {
        let answer = try SessionDescription(parsing: try #require(result["sdpAnswer"]?.stringValue))
        #expect(AnswerChecker.violations(offer: try SessionDescription(parsing: offer), answer: answer) == [])
        for index in MediaOffers.transports(of: answer) {
            let note = try await peer.notification("iceCandidate")
            #expect(note["endpointName"]?.stringValue == endpointName)
            #expect(note["sdpMLineIndex"] == .int(index))
            #expect(note["sdpMid"]?.stringValue == answer.media[index].mid)
            let host = try CandidateAttribute(parsing: try #require(note["candidate"]?.stringValue))
            #expect(host.address == "127.0.0.1")
            #expect(host.usernameFragment == answer.effectiveIceUfrag(ofMediaAt: index))
        }
        return answer
    }

    /// A client candidate for m-line `index` of `offer`, on the offer's ufrag unless `ufrag` is given.
    static func candidate(_ endpointName: String, offer: String, index: Int, port: Int, ufrag: String? = nil) throws
        -> JSONValue
    {
        let offered = try SessionDescription(parsing: offer)
        let ufrag = try #require(ufrag ?? offered.effectiveIceUfrag(ofMediaAt: index))
        return [
            "endpointName": .string(endpointName), "sdpMid": .string(offered.media[index].mid ?? ""),
            "sdpMLineIndex": .int(index),
            "candidate": .string("candidate:1 1 udp 2122260223 10.0.0.7 \(port) typ host generation 0 ufrag \(ufrag)"),
        ]
    }

    @Test func twoUsersPublishAndReceiveWithRealAnswersAndCandidates() async throws {
        let alice = RoomPeer.connected(to: server), bob = RoomPeer.connected(to: server)
        try await alice.join("alice")
        let aliceEndpoint = MediaEndpointID(room: "room1", owner: "alice", endpoint: .publisher)

        // When alice publishes, her answer is real SDP and her candidates are named after her
        let aliceOffer = try await MediaOffers.client(.sendonly)
        let published = try await alice.result("publishVideo", ["sdpOffer": .string(aliceOffer), "doLoopback": false])
        _ = try await Self.answer(published, offer: aliceOffer, peer: alice, endpointName: "alice")
        try await alice.result("onIceCandidate", try Self.candidate("alice", offer: aliceOffer, index: 0, port: 40001))
        let aliceRemote = try #require(await media.remoteDescription(of: aliceEndpoint))
        #expect(aliceRemote.media[0].candidates.map(\.port) == [40001])

        // Given bob's candidate for his subscription, sent before receiveVideoFrom
        try await bob.join("bob")
        #expect(try await alice.notification("participantJoined") == ["id": "bob"])
        let bobOffer = try await MediaOffers.client(.recvonly)
        try await bob.result("onIceCandidate", try Self.candidate("alice", offer: bobOffer, index: 0, port: 40002))

        // When he subscribes, then trickles another candidate
        let received = try await bob.result("receiveVideoFrom",
                                            ["sender": "alice_webcam", "sdpOffer": .string(bobOffer)])
        try await bob.result("onIceCandidate", try Self.candidate("alice", offer: bobOffer, index: 1, port: 40003))

        // Then his answer sends what alice publishes, his candidates are named after alice, and both of his
        // candidates reached the endpoint
        let answer = try await Self.answer(received, offer: bobOffer, peer: bob, endpointName: "alice")
        #expect(answer.media.indices.map { answer.effectiveDirection(ofMediaAt: $0) } == [.sendonly, .sendonly])
        let bobEndpoint = MediaEndpointID(room: "room1", owner: "bob", endpoint: .subscriber(to: "alice"))
        let remote = try #require(await media.remoteDescription(of: bobEndpoint))
        #expect(remote.media.flatMap { $0.candidates.map(\.port) } == [40002, 40003])

        // When alice unpublishes, both endpoints are released
        try await alice.result("unpublishVideo")
        #expect(media.endpoints.isEmpty)
    }

    @Test func loopbackSendsThePublishersStreamBack() async throws {
        let alice = RoomPeer.connected(to: server)
        try await alice.join("alice")
        let offer = try await MediaOffers.client(.sendrecv)
        let published = try await alice.result("publishVideo", ["sdpOffer": .string(offer), "doLoopback": true])
        let answer = try await Self.answer(published, offer: offer, peer: alice, endpointName: "alice")
        #expect(answer.media.indices.map { answer.effectiveDirection(ofMediaAt: $0) } == [.sendrecv, .sendrecv])
    }

    @Test func aCandidateOfAnotherGenerationIsRefusedWith304() async throws {
        let alice = RoomPeer.connected(to: server)
        try await alice.join("alice")
        let offer = try await MediaOffers.client(.sendonly)
        try await alice.result("publishVideo", ["sdpOffer": .string(offer), "doLoopback": false])
        let candidate = try Self.candidate("alice", offer: offer, index: 0, port: 40004, ufrag: "XXXX")
        #expect(try await alice.error("onIceCandidate", candidate)["code"] == 304)
    }

    @Test func anEmptySdpMidAsNBMRoomClientSendsItFallsBackToTheMLineIndex() async throws {
        // docs/wire-protocol.md#stock-kurento: "sdpMid": "" means no mid (it used to be refused with 304)
        let alice = RoomPeer.connected(to: server)
        try await alice.join("alice")
        let offer = try await MediaOffers.client(.sendonly)
        try await alice.result("publishVideo", ["sdpOffer": .string(offer), "doLoopback": false])
        let ufrag = try #require(try SessionDescription(parsing: offer).effectiveIceUfrag(ofMediaAt: 1))
        try await alice.result("onIceCandidate", [
            "endpointName": "alice", "sdpMid": "", "sdpMLineIndex": 1,
            "candidate": .string("candidate:1 1 udp 2122260223 10.0.0.7 40005 typ host generation 0 ufrag \(ufrag)"),
        ])
        let endpoint = MediaEndpointID(room: "room1", owner: "alice", endpoint: .publisher)
        let remote = try #require(await media.remoteDescription(of: endpoint))
        #expect(remote.media.map { $0.candidates.map(\.port) } == [[], [40005]])
    }

    @Test func aQueuedCandidateTheEndpointRefusesDoesNotFailThePublish() async throws {
        let alice = RoomPeer.connected(to: server)
        try await alice.join("alice")
        let offer = try await MediaOffers.client(.sendonly)
        // Given a candidate of an unknown m-line, queued before the endpoint exists (its reply is already out)
        try await alice.result("onIceCandidate", [
            "endpointName": "alice", "candidate": "candidate:1 1 udp 1 10.0.0.7 1 typ host", "sdpMid": "9",
            "sdpMLineIndex": 9,
        ])
        // Then the publish still succeeds, without that candidate
        let published = try await alice.result("publishVideo", ["sdpOffer": .string(offer), "doLoopback": false])
        _ = try await Self.answer(published, offer: offer, peer: alice, endpointName: "alice")
        let endpoint = MediaEndpointID(room: "room1", owner: "alice", endpoint: .publisher)
        #expect(try #require(await media.remoteDescription(of: endpoint)).media.allSatisfy { $0.candidates.isEmpty })
    }

    @Test func leavingReleasesTheEndpoints() async throws {
        let alice = RoomPeer.connected(to: server)
        try await alice.join("alice")
        let offer = try await MediaOffers.client(.sendonly)
        try await alice.result("publishVideo", ["sdpOffer": .string(offer), "doLoopback": false])
        #expect(media.endpoints.count == 1)
        // The server releases them before it replies
        try await alice.result("leaveRoom")
        #expect(media.endpoints.isEmpty)
    }

    @Test(.enabled(if: AiortcWitness.shouldRun, "python3 with aiortc not found; skipped"), .timeLimit(.minutes(1)))
    func aiortcAcceptsAnAnswerMadeThroughTheRoomServer() async throws {
        let alice = RoomPeer.connected(to: server)
        try await alice.join("alice")
        let verdict = try await AiortcWitness.verdict(offering: ["audio", "video"]) { offer in
            let published = try await alice.result("publishVideo", ["sdpOffer": .string(offer), "doLoopback": true])
            _ = try await Self.answer(published, offer: offer, peer: alice, endpointName: "alice")
            return try #require(published["sdpAnswer"]?.stringValue)
        }
        #expect(verdict == "accepted stable")
    }
}
