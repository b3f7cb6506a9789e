import Foundation
import TestSupport
import Testing

/// The built `room-server --kms` with its media in the built `kms-double`, each a process of its own, and `room-join`
/// processes as its clients (docs/kurento.md#backend).
@Suite("room-server --kms")
struct RoomServerKMSCLITests {
    @Test("room-join publishes and another room-join receives through KMS; both leaving releases every KMS object")
    func publishAndReceiveThroughKMS() async throws {
        let kms = try await KMSDoubleProcess.start()
        let server = try await RoomServerProcess.start(["--kms", kms.url])
        let alice = try ChildProcess("room-join", [
            server.url, "--reconnect-for", "0", "--room", "room1", "--user", "alice", "--publish",
        ])
        #expect(try await alice.lineAfterConnecting() == "joined room1 as alice; participants: none")
        let aliceSaw = try await lines(of: alice) { $0.hasPrefix("ICE candidate for the published stream") }
        #expect(aliceSaw.contains("published (no real media: the offer is PeerManager's and nothing is sent)"))
        #expect(Self.isKMSCandidate(aliceSaw.last), "\(aliceSaw)")

        let bob = try ChildProcess("room-join", [
            server.url, "--reconnect-for", "0", "--room", "room1", "--user", "bob", "--receive-all",
        ])
        #expect(try await bob.lineAfterConnecting() == "joined room1 as bob; participants: alice [webcam]")
        let bobSaw = try await lines(of: bob) { $0.hasPrefix("ICE candidate for the subscription to alice") }
        #expect(bobSaw.contains("subscribed to alice"))
        #expect(Self.isKMSCandidate(bobSaw.last), "\(bobSaw)")

        // At KMS: the room's pipeline, alice's endpoint and bob's, both negotiated and gathering; one connection from
        // room-server for both participants.
        let during = try await kms.statistics()
        #expect(during.pipelines == 1 && during.objects == 3, "\(during)")
        #expect(during.operations["processOffer"] == 2 && during.operations["gatherCandidates"] == 2, "\(during)")
        #expect(during.connections == 1 && during.connectionsAccepted == 1, "\(during)")
        #expect(during.eventsSent > 0, "\(during)")

        // Both leave (SIGINT: room-join leaves the room, then exits 130); KMS then holds nothing.
        for child in [bob, alice] {
            child.send(SIGINT)
            #expect(try await child.exitStatus() == 130)
            let stderr = await child.stderr
            #expect(!stderr.contains("cannot"), "\(stderr)")
        }
        try await waitUntil("KMS holds no object once both left", asyncCondition: {
            (try? await kms.statistics())?.objects == 0
        })
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
        #expect(try await kms.stop() == 0)
    }

    @Test("--kms with something that is not a ws:// or wss:// URL is a usage error: exit 2 and one line")
    func aKMSURLThatIsNotOne() async throws {
        let child = try ChildProcess("room-server", ["--port", "0", "--kms", "not-a-url"])
        #expect(try await child.exitStatus() == 2)
        let stderr = await child.stderr
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(stderr)")
        #expect(lines.first?.contains("--kms not-a-url") == true, "\(stderr)")
        #expect(lines.first?.contains("ws://HOST:PORT/kurento") == true, "\(stderr)")
        #expect(await child.remainingLines().isEmpty)
    }

    @Test("/readyz answers 503 while the KMS is down (kms-double killed) and 200 once it is back")
    func readinessFollowsTheKMSProcess() async throws {
        var kms = try await KMSDoubleProcess.start()
        let port = kms.port
        let server = try await RoomServerProcess.start(["--kms", kms.url])
        let http = try #require(RawHTTPClient.port(of: server.url))
        let readiness = { @Sendable () async -> RawHTTPResponse? in try? await RawHTTPClient.get(port: http, "/readyz") }
        try await waitUntil("ready once the KMS is reachable", asyncCondition: { await readiness()?.status == 200 })
        #expect(await readiness()?.text == "ready\n")

        kms.child.send(SIGKILL)
        _ = try await kms.child.exitStatus()
        try await waitUntil("not ready while the KMS is down", asyncCondition: { await readiness()?.status == 503 })
        #expect(await readiness()?.text == "media: no Kurento Media Server reachable (\(kms.url))\n")

        kms = try await KMSDoubleProcess.start(port: port)
        try await waitUntil("ready again once the KMS is back", timeout: .seconds(20),
                            asyncCondition: { await readiness()?.status == 200 })
        #expect(try await kms.statistics().connections == 1)
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
        #expect(try await kms.stop() == 0)
    }

    /// Whether `line` reports a host candidate on 127.0.0.1, as the KMS double gathers them (the server's only media
    /// is KMS: the candidate can only be one of its endpoints').
    static func isKMSCandidate(_ line: String?) -> Bool {
        line.map { $0.contains(" udp ") && $0.contains(" 127.0.0.1 ") && $0.contains(" typ host") } ?? false
    }
}
