import PeerManager
import RoomProtocol
import RoomServer
import SDP
import Testing
import TestSupport

/// The simulated backend on its own: its answers follow the answer rules, its candidates match its answers, and
/// client candidates are checked against the endpoint's remote description.
@Suite struct SimulatedMediaBackendTests {
    let media = SimulatedMediaBackend()
    let alice = MediaEndpointID(room: "room1", owner: "alice", endpoint: .publisher)
    let bob = MediaEndpointID(room: "room1", owner: "bob", endpoint: .subscriber(to: "alice"))

    /// Checks `answer` against `offer` (parsed back from text) and its candidates against the answer.
    static func verify(_ answer: MediaAnswer, offer: String, _ label: String) throws -> SessionDescription {
        let offered = try SessionDescription(parsing: offer)
        let parsed = try SessionDescription(parsing: answer.sdp)
        #expect(AnswerChecker.violations(offer: offered, answer: parsed) == [], "\(label)")
        // A full ICE agent that trickles (docs/sdp-jsep.md#transport-attributes): nothing inlined, no end, no lite.
        #expect(!parsed.iceLite && parsed.iceOptions == ["trickle"], "\(label)")
        #expect(parsed.media.allSatisfy { $0.candidates.isEmpty && !$0.endOfCandidates }, "\(label)")
        #expect(answer.candidates.map(\.sdpMLineIndex) == MediaOffers.transports(of: parsed), "\(label)")
        for candidate in answer.candidates {
            let host = try CandidateAttribute(parsing: candidate.candidate)
            #expect(host.address == "127.0.0.1" && host.type == .host, "\(label)")
            #expect(host.usernameFragment == parsed.effectiveIceUfrag(ofMediaAt: candidate.sdpMLineIndex), "\(label)")
            #expect(candidate.sdpMid == parsed.media[candidate.sdpMLineIndex].mid ?? "", "\(label)")
        }
        return parsed
    }

    @Test(arguments: ["chrome-offer.sdp", "firefox-offer.sdp"])
    func answersBrowserOffersByTheRules(name: String) async throws {
        let offer = try SDPFiles.fixtureText(name)
        let answer = try Self.verify(try await media.createPublisher(alice, offer: offer, loopback: false),
                                     offer: offer, name)
        #expect(answer.media.count == (try SessionDescription(parsing: offer)).media.count)
    }

    @Test(.enabled(if: SDPFiles.corpusShouldRun, "sdp-transform corpus not found at ../shared/fixtures/sdp-transform; skipped"))
    func answersEveryCorpusOfferItAcceptsByTheRules() async throws {
        var answered = 0
        let offers = try SDPFiles.corpusValidFileNames().map { ($0, try SDPFiles.corpusText($0)) }
        for (index, (name, offer)) in offers.enumerated() {
            let endpoint = MediaEndpointID(room: "corpus", owner: "user\(index)", endpoint: .publisher)
            // Offers without ICE credentials are refused by the remote description (W3C); the rest must be answered.
            do {
                _ = try Self.verify(try await media.createPublisher(endpoint, offer: offer, loopback: false),
                                    offer: offer, name)
                answered += 1
            } catch {
                #expect("\(error)".contains("no ice-ufrag/ice-pwd"), "\(name): \(error)")
            }
        }
        #expect(answered >= 6)
    }

    @Test func bundledSectionsShareTheTaggedSectionsCandidateAndEndpointsTheirPorts() async throws {
        let offer = try SDPFiles.fixtureText("chrome-offer.sdp")
        let first = try await media.createPublisher(alice, offer: offer, loopback: false)
        let second = try await media.createSubscriber(bob, offer: offer)
        #expect(first.candidates.map(\.sdpMid) == ["0"] && second.candidates.map(\.sdpMid) == ["0"])
        let ports = try (first.candidates + second.candidates)
            .map { try CandidateAttribute(parsing: $0.candidate).port }
        #expect(Set(ports).count == 2)
    }

    @Test func directionsFollowTheEndpointAndLoopback() async throws {
        let sendrecv = try await MediaOffers.client(.sendrecv)
        func directions(_ answer: MediaAnswer) throws -> [MediaDirection] {
            let parsed = try SessionDescription(parsing: answer.sdp)
            return parsed.media.indices.map { parsed.effectiveDirection(ofMediaAt: $0) }
        }
        #expect(try directions(try await media.createPublisher(alice, offer: sendrecv, loopback: false))
            == [.recvonly, .recvonly])
        await media.release(alice)
        #expect(try directions(try await media.createPublisher(alice, offer: sendrecv, loopback: true))
            == [.sendrecv, .sendrecv])
        let recvonly = try await MediaOffers.client(.recvonly)
        #expect(try directions(try await media.createSubscriber(bob, offer: recvonly)) == [.sendonly, .sendonly])
    }

    @Test func clientCandidatesAreCheckedAgainstTheOffer() async throws {
        let offer = try SDPFiles.fixtureText("chrome-offer.sdp")
        _ = try await media.createPublisher(alice, offer: offer, loopback: false)
        let line = "candidate:1 1 udp 2122260223 192.168.1.10 48156 typ host generation 0"
        // Given the offer's mids and ufrag, a candidate is applied to the remote description
        try await media.addCandidate(MediaCandidate(candidate: line + " ufrag Yp3d", sdpMid: "1", sdpMLineIndex: 1),
                                     to: alice)
        let remote = try #require(await media.remoteDescription(of: alice))
        #expect(remote.media[1].candidates.map(\.port) == [48156])
        // An unknown mid, or another ICE generation's ufrag, is refused with 304
        for refused in [MediaCandidate(candidate: line, sdpMid: "9", sdpMLineIndex: 9),
                        MediaCandidate(candidate: line + " ufrag XXXX", sdpMid: "0", sdpMLineIndex: 0)] {
            let error = await #expect(throws: RoomError.self) { try await media.addCandidate(refused, to: alice) }
            #expect(error?.code == .mediaWebRTCEndpoint)
        }
    }

    @Test func releasedEndpointsAreGone() async throws {
        let offer = try await MediaOffers.client(.sendonly)
        _ = try await media.createPublisher(alice, offer: offer, loopback: false)
        _ = try await media.createSubscriber(bob, offer: try await MediaOffers.client(.recvonly))
        #expect(media.endpoints == [alice, bob])
        await media.release(alice)
        await media.release(bob)
        #expect(media.endpoints.isEmpty)
        await #expect(throws: RoomError.self) {
            try await media.addCandidate(MediaCandidate(candidate: "", sdpMid: "0", sdpMLineIndex: 0), to: alice)
        }
    }

    @Test func anEndpointCreatedAgainSurvivesTheLateReleaseOfItsPredecessor() async throws {
        // Given alice's publisher created a second time before the first one is released (unpublish, publish)
        _ = try await media.createPublisher(alice, offer: try await MediaOffers.client(.sendonly), loopback: false)
        let second = try await MediaOffers.client(.sendonly)
        _ = try await media.createPublisher(alice, offer: second, loopback: false)
        #expect(media.endpoints == [alice, alice])
        // When the first one's release arrives, the second one stays, with its own remote description
        await media.release(alice)
        #expect(media.endpoints == [alice])
        let remote = try #require(await media.remoteDescription(of: alice))
        let secondUfrag = try SessionDescription(parsing: second).effectiveIceUfrag(ofMediaAt: 0)
        #expect(remote.effectiveIceUfrag(ofMediaAt: 0) == secondUfrag)
    }

    @Test func anOfferThatDoesNotParseIsRefused() async throws {
        await #expect(throws: (any Error).self) {
            try await media.createPublisher(alice, offer: "v=0\r\nbogus", loopback: false)
        }
        #expect(media.endpoints.isEmpty)
    }

    @Test func theDefaultConfigurationSimulatesMedia() {
        #expect(RoomServer.Configuration().media is SimulatedMediaBackend)
    }
}
