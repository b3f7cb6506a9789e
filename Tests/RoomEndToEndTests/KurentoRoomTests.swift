import JSONRPC
import PeerManager
import RoomClient
import RoomProtocol
import RoomServer
import SDP
import Testing
import TestSupport

/// Rooms whose media is in Kurento Media Server (docs/kurento.md#backend): RoomClients over real sockets, the server
/// with ``KurentoMediaBackend``, and the KMS double, whose object graph is the truth checked after every flow.
@Suite struct KurentoRoomTests {
    static let room = "kms"

    @Test func aRoomHasOnePipelineAnEndpointPerStreamAndSubscriptionAndReleasesThemAll() async throws {
        let k = try await KurentoRoom.start()
        defer { Task { await k.stop() } }
        let alice = RoomUser("alice", room: Self.room, url: k.server.url)
        let bob = RoomUser("bob", room: Self.room, url: k.server.url)
        try await withDeadline(.seconds(30), "the room through KMS") {
            _ = try await alice.join()
            _ = try await bob.join()
            // A join alone creates nothing at KMS.
            #expect(k.kms.liveObjectCount == 0)
            try await alice.publish(port: 41001)
            #expect(k.kms.pipelines.count == 1)
            let publisher = try #require(k.objects("WebRtcEndpoint").first)
            // KMS's candidates, gathered after the offer, reach alice as iceCandidate for her publisher.
            try await alice.waitForEvent("a KMS candidate") { event in
                if case .iceCandidate(_, .publisher) = event { true } else { false }
            }
            // Alice's candidate reached KMS's endpoint.
            let remote = try #require(await k.kms.remoteDescription(of: publisher))
            #expect(remote.media[0].candidates.contains { $0.port == 41001 })
            try await bob.waitForEvent("alice publishes") { $0 == .participantPublished(Peer(identifier: "alice", streams: ["webcam"])) }
            try await bob.subscribe(to: "alice", port: 41002)
            let endpoints = k.objects("WebRtcEndpoint")
            #expect(endpoints.count == 2)
            let subscription = try #require(endpoints.first { $0 != publisher })
            // Bob's endpoint is fed from alice's, audio, video and data, in the same pipeline.
            let feeds = k.kms.connections(of: subscription).filter { $0.sink == subscription }
            #expect(Set(feeds.map(\.source)) == [publisher])
            #expect(Set(feeds.map(\.mediaType)) == ["AUDIO", "VIDEO", "DATA"])
            try await bob.waitForEvent("a KMS candidate") { event in
                if case .iceCandidate(_, .subscriber("alice")) = event { true } else { false }
            }
            // Unsubscribing releases bob's endpoint, unpublishing alice's, leaving the room the pipeline.
            try await bob.client.unsubscribe(from: try #require(bob.client.peer(withIdentifier: "alice")))
            try await waitUntil("bob's endpoint released") { k.objects("WebRtcEndpoint") == [publisher] }
            try await alice.client.unpublishVideo()
            try await waitUntil("alice's endpoint released") { k.objects("WebRtcEndpoint").isEmpty }
            #expect(k.kms.pipelines.count == 1)
            try await alice.client.leave()
            #expect(k.kms.pipelines.count == 1)
            try await bob.client.leave()
            try await k.waitUntilEmpty("the room emptied")
        }
    }

    @Test func aRoomThatEmptiesWhileItsEndpointsAreStillBeingReleasedReleasesItsPipelineAfterThem() async throws {
        let k = try await KurentoRoom.start()
        defer { Task { await k.stop() } }
        let alice = RoomUser("alice", room: Self.room, url: k.server.url)
        let bob = RoomUser("bob", room: Self.room, url: k.server.url)
        try await withDeadline(.seconds(30), "leaves that overlap") {
            _ = try await alice.join()
            _ = try await bob.join()
            try await alice.publish(port: 41061)
            try await bob.waitForEvent("alice publishes") { $0 == .participantPublished(Peer(identifier: "alice", streams: ["webcam"])) }
            try await bob.subscribe(to: "alice", port: 41062)
            // Alice leaves: her endpoint and bob's subscription to it are released one after the other, and KMS
            // holds the first release.
            let gate = BlockingGate()
            k.kms.hold(methods: ["release"], until: gate)
            let leaving = Task { try await alice.client.leave() }
            try await waitUntil("KMS holds the release of alice's endpoint") { gate.isBlocking }
            // Bob leaves meanwhile: the room is empty while its endpoints are still being released.
            try await bob.client.leave()
            gate.open()
            try await leaving.value
            try await k.waitUntilEmpty("both left, their leaves overlapping")
        }
    }

    @Test func loopbackConnectsThePublishersEndpointToItself() async throws {
        let k = try await KurentoRoom.start()
        defer { Task { await k.stop() } }
        let alice = RoomUser("alice", room: Self.room, url: k.server.url)
        try await withDeadline(.seconds(30), "a loopback publish") {
            _ = try await alice.join()
            let offer = try await alice.media.generateOffer(for: "alice", media: .audioVideo(direction: .sendrecv))
            let answer = try await alice.client.publishVideo(sdpOffer: offer, loopback: true)
            try await alice.media.processAnswer(answer, for: "alice")
            let endpoint = try #require(k.objects("WebRtcEndpoint").first)
            #expect(k.kms.connections(of: endpoint).contains { $0.source == endpoint && $0.sink == endpoint })
            // KMS answers sendrecv to a sendrecv offer: the stream comes back.
            let answered = try SessionDescription(parsing: answer)
            #expect(answered.media.allSatisfy { $0.direction == .sendrecv })
            try await alice.client.leave()
            try await k.waitUntilEmpty("alice left")
        }
    }

    @Test func evictionAClosedRoomALostSessionAndShutdownEachReleaseWhatTheyOwn() async throws {
        let k = try await KurentoRoom.start(reconnectionWindow: .milliseconds(300))
        defer { Task { await k.stop() } }
        try await withDeadline(.seconds(60), "every way out") {
            // An application eviction.
            let alice = RoomUser("alice", room: "evicted", url: k.server.url)
            _ = try await alice.join()
            try await alice.publish(port: 41011)
            #expect(k.kms.liveObjectCount == 2)
            #expect(await k.server.evict("alice", from: "evicted"))
            try await k.waitUntilEmpty("an eviction")

            // A room the application closes.
            let bob = RoomUser("bob", room: "closed", url: k.server.url)
            let carol = RoomUser("carol", room: "closed", url: k.server.url)
            _ = try await bob.join()
            _ = try await carol.join()
            try await bob.publish(port: 41012)
            try await carol.subscribe(to: "bob", port: 41013)
            #expect(k.kms.liveObjectCount == 3)
            #expect(await k.server.closeRoom("closed"))
            try await k.waitUntilEmpty("a closed room")

            // A session that ends: the socket goes, the reconnection window passes.
            let dave = RoomUser("dave", room: "lost", url: k.server.url)
            _ = try await dave.join()
            try await dave.publish(port: 41014)
            #expect(k.kms.liveObjectCount == 2)
            await dave.client.disconnect()
            try await k.waitUntilEmpty("a lost session")

            // A server shutdown releases what is left, and its KMS session with it.
            let erin = RoomUser("erin", room: "shutdown", url: k.server.url)
            _ = try await erin.join()
            try await erin.publish(port: 41015)
            #expect(k.kms.liveObjectCount == 2)
            await k.server.shutdown()
            #expect(k.kms.liveObjectCount == 0)
        }
    }

    @Test func aKMSRestartSendsMediaErrorAndTheRoomIsRebuiltWhenClientsPublishAgain() async throws {
        let k = try await KurentoRoom.start()
        defer { Task { await k.stop() } }
        let alice = KurentoRoom.restoringUser("alice", room: Self.room, url: k.server.url)
        let bob = KurentoRoom.restoringUser("bob", room: Self.room, url: k.server.url)
        try await withDeadline(.seconds(30), "a KMS restart") {
            _ = try await alice.join()
            _ = try await bob.join()
            try await alice.publish(port: 41021)
            try await bob.subscribe(to: "alice", port: 41022)
            let before = Set(k.kms.liveObjects.keys)
            #expect(before.count == 3)
            await k.kms.restart()
            // Alice's publisher and bob's subscription are gone: each hears it, bob after alice's unpublish.
            try await alice.waitForEvent("mediaError for her stream") { event in
                if case .mediaError(_, .publisher?) = event { true } else { false }
            }
            try await bob.waitForEvent("mediaError for his subscription") { event in
                if case .mediaError(_, .subscriber("alice")?) = event { true } else { false }
            }
            let bobsEvents = bob.allEvents
            let unpublished = try #require(bobsEvents.firstIndex(of: .participantUnpublished(Peer(identifier: "alice"))))
            let failed = try #require(bobsEvents.firstIndex { if case .mediaError = $0 { true } else { false } })
            #expect(unpublished < failed)
            // Alice's client publishes again by itself, into a new pipeline of the new KMS process.
            let published = RoomEvent.participantPublished(Peer(identifier: "alice", streams: ["webcam"]))
            try await waitUntil("alice publishes again") { bob.allEvents.filter { $0 == published }.count == 2 }
            try await waitUntil("alice's new endpoint") { k.objects("WebRtcEndpoint").count == 1 }
            #expect(Set(k.kms.liveObjects.keys).isDisjoint(with: before))
            // Bob subscribes again, as he would to any new publisher (a new peer connection: a new endpoint).
            await bob.media.closeConnection("alice")
            try await bob.subscribe(to: "alice", port: 41023)
            #expect(k.objects("WebRtcEndpoint").count == 2)
            #expect(k.kms.pipelines.count == 1)
            try await alice.client.leave()
            try await bob.client.leave()
            try await k.waitUntilEmpty("the rebuilt room emptied")
        }
    }

    @Test func aSlowKMSTimesOutThatRequestWith303AndItsLateAnswerLeaksNothing() async throws {
        let k = try await KurentoRoom.start(timeout: .milliseconds(500))
        defer { Task { await k.stop() } }
        let alice = RoomUser("alice", room: Self.room, url: k.server.url)
        let bob = RoomUser("bob", room: Self.room, url: k.server.url)
        try await withDeadline(.seconds(30), "a slow KMS") {
            _ = try await alice.join()
            _ = try await bob.join()
            k.kms.delay(operations: ["processOffer"], by: .seconds(1))
            let offer = try await alice.media.generateOffer(for: "alice", media: .audioVideo(direction: .sendonly))
            do {
                _ = try await alice.client.publishVideo(sdpOffer: offer)
                Issue.record("a publish through a slow KMS succeeded")
            } catch let error as RoomError {
                #expect(error.code == .mediaEndpoint)
                #expect(error.message.contains("did not answer"))
            }
            // The room is still usable meanwhile.
            try await alice.client.sendMessage("still here")
            _ = try await bob.received(before: "still here", from: "alice")
            // KMS finishes the slow offer later; the endpoint it negotiated is released, the pipeline stays.
            try await waitUntil("the late endpoint released") { k.objects("WebRtcEndpoint").isEmpty }
            k.kms.removeDelays()
            try await alice.publish(port: 41031)
            #expect(k.objects("WebRtcEndpoint").count == 1)
            try await alice.client.leave()
            try await bob.client.leave()
            try await k.waitUntilEmpty("the room emptied")
        }
    }

    @Test func aRefusedCreateFailsThatRequestAndTheParticipantStaysJoined() async throws {
        let k = try await KurentoRoom.start()
        defer { Task { await k.stop() } }
        let alice = RoomUser("alice", room: Self.room, url: k.server.url)
        try await withDeadline(.seconds(30), "a refused create") {
            _ = try await alice.join()
            k.kms.refuseCreates(1)
            let offer = try await alice.media.generateOffer(for: "alice", media: .audioVideo(direction: .sendonly))
            do {
                _ = try await alice.client.publishVideo(sdpOffer: offer)
                Issue.record("a publish succeeded while KMS refused to create")
            } catch let error as RoomError {
                #expect(error.code == .mediaEndpoint)
                #expect(error.message.contains("threads limit"))
            }
            #expect(k.server.rooms[Self.room] == ["alice"])
            #expect(k.kms.liveObjectCount == 0)
            try await alice.publish(port: 41041)
            #expect(k.kms.liveObjectCount == 2)
            try await alice.client.leave()
            try await k.waitUntilEmpty("alice left")
        }
    }

    @Test func anAnswerThatBreaksRFC3264IsRefusedWith302AndReleased() async throws {
        let k = try await KurentoRoom.start()
        defer { Task { await k.stop() } }
        let alice = RoomUser("alice", room: Self.room, url: k.server.url)
        try await withDeadline(.seconds(30), "a broken answer") {
            _ = try await alice.join()
            k.kms.corruptNextAnswer()
            let offer = try await alice.media.generateOffer(for: "alice", media: .audioVideo(direction: .sendonly))
            do {
                _ = try await alice.client.publishVideo(sdpOffer: offer)
                Issue.record("a broken answer reached the client")
            } catch let error as RoomError {
                #expect(error.code == .mediaSDP)
                #expect(error.message.contains("RFC 3264"))
            }
            try await waitUntil("the endpoint released") { k.objects("WebRtcEndpoint").isEmpty }
            try await alice.client.leave()
            try await k.waitUntilEmpty("alice left")
        }
    }

    @Test func anEndpointsErrorEventReachesItsOwnerAndItsSubscribersAsMediaError() async throws {
        let k = try await KurentoRoom.start()
        defer { Task { await k.stop() } }
        let alice = RoomUser("alice", room: Self.room, url: k.server.url)
        let bob = RoomUser("bob", room: Self.room, url: k.server.url)
        try await withDeadline(.seconds(30), "an Error event") {
            _ = try await alice.join()
            _ = try await bob.join()
            try await alice.publish(port: 41051)
            let publisher = try #require(k.objects("WebRtcEndpoint").first)
            try await bob.subscribe(to: "alice", port: 41052)
            k.kms.emitError(on: publisher, description: "Error code 1: stream failed", errorCode: 1,
                            type: "STREAM_ERROR_FAILED")
            try await alice.waitForEvent("mediaError") { event in
                if case .mediaError(let text, .publisher?) = event {
                    text == "STREAM_ERROR_FAILED: Error code 1: stream failed(errCode=1)"
                } else { false }
            }
            try await bob.waitForEvent("mediaError") { event in
                if case .mediaError(_, .subscriber("alice")?) = event { true } else { false }
            }
            // Both endpoints are gone at KMS; the pipeline stays with the room.
            try await waitUntil("both endpoints released") { k.objects("WebRtcEndpoint").isEmpty }
            #expect(!alice.client.localPeer.isPublishing)
            try await alice.client.leave()
            try await bob.client.leave()
            try await k.waitUntilEmpty("the room emptied")
        }
    }

    @Test func readinessFollowsKMS() async throws {
        let k = try await KurentoRoom.start()
        defer { Task { await k.stop() } }
        try await waitUntil("ready once KMS is reachable") { k.server.notReadyReason == nil }
        k.kms.pause()
        k.kms.dropConnections()
        try await waitUntil("not ready while KMS is unreachable") {
            k.server.notReadyReason?.contains("no Kurento Media Server reachable") == true
        }
        try k.kms.resume()
        try await waitUntil("ready again") { k.server.notReadyReason == nil }
    }
}
