import Foundation
import JSONRPC
import PeerManager
import RoomClient
import RoomProtocol
import RoomServer
import SDP
import Testing
import TestSupport

/// The dashboard of a server whose media comes from Kurento Media Server (the KMS double through
/// ``KurentoMediaBackend``): the room's media server, and per stream and subscription whether media flows, a stuck
/// one (negotiated, but its ICE never connected: no candidate was sent) marked and counted.
extension DashboardBrowserTests {
    @Test(.enabled(if: missing == nil || isCI, "needs chromium and python3 websockets (make deps); required when CI=true"))
    func dashboardShowsTheMediaServerAndWhetherMediaFlows() async throws {
        if let missing = Self.missing {
            Issue.record("CI=true: \(missing)")
            return
        }
        // Given a server on the KMS double with an admin token, and the dashboard open on it
        let kms = try KurentoMediaServerDouble()
        defer { kms.stop() }
        let backend = KurentoMediaBackend(configuration: .init(urls: [kms.url], reconnectInterval: .milliseconds(100)))
        let token = "dash-" + UUID().uuidString
        let server = try await RoomServer.start(.init(media: backend, operations: Self.operations(token)))
        let browser = try await Self.openDashboard(server, token: token)
        defer { browser.terminate() }
        let alice = MediaUser("alice", url: server.url), bob = MediaUser("bob", url: server.url)
        let carol = MediaUser("carol", url: server.url)

        // When alice publishes and sends a candidate (the double connects her ICE, then her media flows in), and bob
        // receives her stream and sends a candidate too
        _ = try await alice.join()
        try await alice.publish()
        try await alice.trickle(.publisher, port: 41101)
        _ = try await bob.join()
        try await bob.receive(from: "alice")
        try await bob.trickle(.subscriber(to: "alice"), port: 41102)

        // Then the room names its KMS, and both endpoints flow
        try await Self.expect(browser, ["state": "live", "stuck": 0, "rooms": ["demo": [
            "mediaServer": .string(kms.url), "participants": ["alice", "bob"],
            "cells": ["alice": ["webcam", "audio flowing", "video flowing"], "bob": ["alice", "video flowing"]],
            "flows": ["alice": ["webcam": "flowing"], "bob": ["alice": "flowing"]]]]], "alice and bob flowing")

        // When carol receives alice's stream but sends no candidate, her subscription is stuck, and counted
        _ = try await carol.join()
        try await carol.receive(from: "alice")
        try await Self.expect(browser, ["stuck": 1, "rooms": ["demo": [
            "participants": ["alice", "bob", "carol"], "cells": ["carol": ["alice", "video unknown"]],
            "flows": ["carol": ["alice": "stuck"]]]]], "carol stuck")
        try await Self.expect(browser, ["rooms": ["demo": ["measured": ["alice", "bob", "carol"]]]], "the RTTs")
        try await Self.takeScreenshot(browser)

        // When she sends one, her media flows too
        try await carol.trickle(.subscriber(to: "alice"), port: 41103)
        try await Self.expect(browser, ["stuck": 0, "rooms": ["demo": [
            "flows": ["carol": ["alice": "flowing"]]]]], "carol flowing")

        // When alice stops publishing, her stream and both subscriptions go; when everyone leaves, so does the room
        try await alice.client.unpublishVideo()
        try await Self.expect(browser, ["stuck": 0, "rooms": ["demo": [
            "flows": ["alice": ["webcam": nil], "bob": ["alice": nil], "carol": ["alice": nil]]]]], "alice unpublished")
        for user in [alice, bob, carol] { try await user.client.leave() }
        try await Self.expect(browser, ["rooms": ["demo": nil]], "the room gone")

        try browser.send("quit")
        #expect(await browser.finish() == 0)
        for user in [alice, bob, carol] { await user.client.disconnect() }
        await server.shutdown()
    }
}

/// A ``RoomClient`` in room "demo" whose offers and candidates come from its own ``PeerManager``, as Kurento Media
/// Server (and its double) wants them: real SDP, and candidates on the offer's ICE credentials.
struct MediaUser {
    let name: String
    let client: RoomClient
    let media = PeerManager()

    init(_ name: String, url: String) {
        self.name = name
        client = RoomClient(room: Room(username: name, roomName: "demo", url: url))
    }

    /// Connects and joins; returns the participants already there.
    func join() async throws -> [Peer] {
        try await client.connect()
        return try await client.join()
    }

    /// Publishes a send-only offer and applies the answer.
    func publish() async throws {
        let offer = try await media.generateOffer(for: name, media: .audioVideo(direction: .sendonly))
        try await media.processAnswer(try await client.publishVideo(sdpOffer: offer), for: name)
    }

    /// Receives `publisher`'s stream with a receive-only offer and applies the answer.
    func receive(from publisher: String) async throws {
        let peer = try #require(client.peer(withIdentifier: publisher))
        let offer = try await media.generateOffer(for: publisher, media: .audioVideo(direction: .recvonly))
        try await media.processAnswer(try await client.receiveVideo(from: peer, sdpOffer: offer), for: publisher)
    }

    /// Sends a host candidate on `port` for `endpoint`.
    func trickle(_ endpoint: RoomEndpoint, port: Int) async throws {
        let id = endpoint.endpointName(ownName: name)
        try await client.sendICECandidate(try await media.addHostCandidate(address: "127.0.0.1", port: port, for: id),
                                          for: endpoint)
    }
}
