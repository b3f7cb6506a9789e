import PeerManager
import RoomClient
import RoomServer
import SDP
import Testing
import TestSupport

/// The independent witnesses of docs/testing.md#witnesses with the answers coming through Kurento Media Server: a
/// RoomServer whose backend is ``KurentoMediaBackend`` on the KMS double answers the offers of aiortc and of headless
/// Chromium's RTCPeerConnection, and their own setRemoteDescription must accept what it answered. Each skips without
/// its tool and fails under `CI=true`.
@Suite struct KurentoRoomWitnessTests {
    static let room = "witness"

    @Test(.enabled(if: AiortcWitness.shouldRun, "python3 with aiortc not found; skipped"), .timeLimit(.minutes(1)),
          arguments: [["audio", "video"], ["audio", "video", "data"]])
    func aiortcAcceptsTheAnswerToItsOfferPublishedThroughKMS(kinds: [String]) async throws {
        let k = try await KurentoRoom.start()
        defer { Task { await k.stop() } }
        let alice = RoomUser("alice", room: Self.room, url: k.server.url)
        _ = try await alice.join()
        let verdict = try await AiortcWitness.verdict(offering: kinds) { offer in
            let answer = try await alice.client.publishVideo(sdpOffer: offer)
            let answered = try SessionDescription(parsing: answer)
            #expect(AnswerChecker.violations(offer: try SessionDescription(parsing: offer), answer: answered) == [])
            #expect(answered.media.count == kinds.count)
            return answer
        }
        #expect(verdict == "accepted stable")
        // The answer is KMS's: the publisher's endpoint there holds aiortc's offer as its remote description.
        let endpoint = try #require(k.objects("WebRtcEndpoint").first)
        #expect(await k.kms.remoteDescription(of: endpoint)?.media.count == kinds.count)
        try await alice.client.leave()
        try await k.waitUntilEmpty("alice left")
    }

    @Test(.enabled(if: ChromiumPeer.shouldRun, "needs chromium and python3 websockets (make deps); required when CI=true"),
          .timeLimit(.minutes(3)))
    func chromiumPublishesAndSubscribesThroughKMSAndAcceptsItsAnswers() async throws {
        if let missing = ChromiumPeer.missing {
            Issue.record("CI=true: \(missing)")
            return
        }
        let k = try await KurentoRoom.start()
        defer { Task { await k.stop() } }
        let alice = RoomUser("alice", room: Self.room, url: k.server.url)
        let bob = RoomUser("bob", room: Self.room, url: k.server.url)
        _ = try await alice.join()
        _ = try await bob.join()

        // Alice's browser publishes its tracks (sendonly audio and video); KMS receives both, and the browser accepts.
        let publisher = try await ChromiumPeer.start()
        defer { publisher.terminate() }
        try #require(try await publisher.step("addSendonly", ["audio", "video"]).error == nil)
        let offer = try await publisher.describe("createOffer")
        let answerText = try await alice.client.publishVideo(sdpOffer: offer)
        let answer = try SessionDescription(parsing: answerText)
        #expect(answer.media.indices.map { answer.effectiveDirection(ofMediaAt: $0) } == [.recvonly, .recvonly])
        let published = try await publisher.setRemote("answer", answerText, "KMS's answer to its publish")
        #expect(published.state.signalingState == "stable")
        #expect(published.state.transceivers.map(\.currentDirection) == ["sendonly", "sendonly"])

        // Bob's browser subscribes (recvonly audio and video): KMS sends both in one stream, and the browser's tracks
        // arrive in that stream.
        try await bob.waitForEvent("alice publishes") {
            $0 == .participantPublished(Peer(identifier: "alice", streams: ["webcam"]))
        }
        let subscriber = try await ChromiumPeer.start()
        defer { subscriber.terminate() }
        try #require(try await subscriber.step("addRecvonly", ["audio", "video"]).error == nil)
        let request = try await subscriber.describe("createOffer")
        let sender = try #require(bob.client.peer(withIdentifier: "alice"))
        let responseText = try await bob.client.receiveVideo(from: sender, sdpOffer: request)
        let response = try SessionDescription(parsing: responseText)
        let sending = response.media.indices.filter { response.effectiveDirection(ofMediaAt: $0) == .sendonly }
        #expect(sending.map { response.media[$0].kind } == ["audio", "video"], "\(responseText)")
        let streams = Set(sending.flatMap { response.media[$0].msids.map(\.streamID) })
        #expect(streams.count == 1, "the answer's sending sections name the streams \(streams)")
        let subscribed = try await subscriber.setRemote("answer", responseText, "KMS's answer to its subscription")
        #expect(subscribed.state.signalingState == "stable")
        #expect(subscribed.state.events.map(\.kind).sorted() == ["audio", "video"], "\(subscribed.state.events)")
        #expect(subscribed.state.tracksArrive(inOne: try #require(streams.first)), "\(subscribed.state)")

        // KMS holds alice's endpoint and bob's, fed from hers; leaving releases them.
        #expect(k.objects("WebRtcEndpoint").count == 2)
        #expect(try await publisher.quit() == 0)
        #expect(try await subscriber.quit() == 0)
        try await alice.client.leave()
        try await bob.client.leave()
        try await k.waitUntilEmpty("both left")
    }
}
