import SignalingSupport
import PeerManager
import SDP
import Testing

@Suite struct PeerManagerRegistryTests {
    /// A remote answer with ICE credentials of its own: `ufrag`, and a password that changes with it (an answer to
    /// an ICE restart must change both).
    static func remoteAnswer(to offerText: String, ufrag: String) throws -> String {
        let offer = try SessionDescription(parsing: offerText)
        var generator = SeededRandomNumberGenerator(seed: 3)
        return AnswerBuilder.answer(
            to: offer, credentials: IceCredentials(ufrag: ufrag, pwd: "remotepasswordremote" + ufrag),
            fingerprint: .randomSHA256(using: &generator), sessionID: 9
        ).serialized()
    }

    @Test func hundredConcurrentNegotiationsEndStableWithoutCrossing() async throws {
        let manager = PeerManager(generator: SeededRandomNumberGenerator(seed: 1))
        let ids = (0..<100).map { "peer-\($0)" }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (number, id) in ids.enumerated() {
                group.addTask {
                    if number.isMultiple(of: 2) {
                        let offer = try await manager.generateOffer(for: id, media: .audioVideo())
                        try await manager.processAnswer(try Self.remoteAnswer(to: offer, ufrag: "u\(number)x"), for: id)
                    } else {
                        _ = try await manager.processOffer(Negotiation.offer(ufrag: "u\(number)x"), for: id)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(await manager.activeConnections == ids.sorted())
        for (number, id) in ids.enumerated() {
            let pc = try #require(await manager.connection(id))
            #expect(pc.signalingState == .stable, "\(id)")
            #expect(pc.currentRemoteDescription?.description.media.first?.iceUfrag == "u\(number)x", "\(id)")
            #expect(pc.currentLocalDescription?.type == (number.isMultiple(of: 2) ? .offer : .answer), "\(id)")
        }
        let localUfrags = await ids.asyncMap { await manager.connection($0)?.localDescription?.description.media.first?.iceUfrag }
        #expect(Set(localUfrags).count == 100)
    }

    @Test func subscriberSeesEventsInOrder() async throws {
        let manager = PeerManager(generator: SeededRandomNumberGenerator(seed: 2))
        let events = await manager.events()
        let offer = try await manager.generateOffer(for: "a", media: .audioVideo())
        try await manager.processAnswer(try Self.remoteAnswer(to: offer, ufrag: "rmte"), for: "a")
        await manager.closeConnection("a")
        var seen: [PeerManagerEvent] = []
        for try await event in events {
            seen.append(event)
            if case .connectionClosed = event { break }
        }
        #expect(seen == [
            .signalingStateChanged(id: "a", state: .haveLocalOffer), .offerGenerated(id: "a", sdp: offer),
            .signalingStateChanged(id: "a", state: .stable), .connectionClosed(id: "a"),
        ])
        #expect(await manager.activeConnections.isEmpty)
    }

    @Test func slowSubscriberIsEndedWithAnError() async throws {
        let manager = PeerManager(generator: SeededRandomNumberGenerator(seed: 2), subscriberBuffer: 2)
        let events = await manager.events()
        _ = try await manager.generateOffer(for: "a", media: .audioVideo())
        _ = try await manager.generateOffer(for: "b", media: .audioVideo())
        var received = 0
        await #expect(throws: PeerManagerError.subscriberOverflow(limit: 2)) {
            for try await _ in events { received += 1 }
        }
        #expect(received == 2)
    }

    @Test func iceRestartChangesCredentialsAndRejectsTheOldGeneration() async throws {
        let manager = PeerManager(generator: SeededRandomNumberGenerator(seed: 4))
        let first = try await manager.generateOffer(for: "a", media: .audioVideo())
        try await manager.processAnswer(try Self.remoteAnswer(to: first, ufrag: "old1"), for: "a")
        try await manager.restartIce(for: "a")
        let second = try await manager.generateOffer(for: "a", media: .audioVideo())
        let ufrag = { (text: String) in try SessionDescription(parsing: text).media[0].iceUfrag }
        #expect(try ufrag(first) != ufrag(second))
        try await manager.processAnswer(try Self.remoteAnswer(to: second, ufrag: "new2"), for: "a")
        let stale = IceCandidate(candidate: "candidate:1 1 udp 100 192.0.2.1 5000 typ host ufrag old1", sdpMid: "0")
        await #expect(throws: PeerManagerError.connection(id: "a", .candidate(.unknownUsernameFragment("old1")))) {
            try await manager.addICECandidate(stale, for: "a")
        }
        try await manager.addICECandidate(IceCandidate(candidate: "candidate:1 1 udp 100 192.0.2.1 5000 typ host ufrag new2", sdpMid: "0"), for: "a")
    }

    @Test func localCandidateComesOutAsAnEvent() async throws {
        let manager = PeerManager(generator: SeededRandomNumberGenerator(seed: 5))
        _ = try await manager.generateOffer(for: "a", media: .audioVideo())
        let events = await manager.events()
        let host = "candidate:1 1 udp 2130706431 192.0.2.9 40000 typ host"
        try await manager.addLocalCandidate(IceCandidate(candidate: host, sdpMLineIndex: 0), for: "a")
        var iterator = events.makeAsyncIterator()
        #expect(try await iterator.next() == .localCandidate(id: "a", candidate: IceCandidate(candidate: host, sdpMid: "0", sdpMLineIndex: 0)))
    }

    @Test func operationsOnUnknownIdsFail() async {
        let manager = PeerManager()
        await #expect(throws: PeerManagerError.unknownConnection("nobody")) { try await manager.processAnswer("", for: "nobody") }
    }
}

extension Sequence where Element: Sendable {
    func asyncMap<T>(_ transform: (Element) async -> T) async -> [T] {
        var out: [T] = []
        for element in self { out.append(await transform(element)) }
        return out
    }
}
