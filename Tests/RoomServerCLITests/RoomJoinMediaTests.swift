import Foundation
import TestSupport
import Testing

/// `room-join --publish`, `--receive` and `--receive-all` against the built `room-server` (simulated media).
@Suite("room-join media")
struct RoomJoinMediaTests {
    @Test("two room-joins publish and subscribe to each other, the later publisher too; server candidates are added")
    func publishAndReceive() async throws {
        let server = try await RoomServerProcess.start()
        let alice = try ChildProcess("room-join", [
            server.url, "--reconnect-for", "0", "--room", "room1", "--user", "alice", "--wait-for", "bob", "--receive-all", "--publish",
        ])
        #expect(try await alice.lineAfterConnecting() == "joined room1 as alice; participants: none")
        let bob = try ChildProcess("room-join", [
            server.url, "--reconnect-for", "0", "--room", "room1", "--user", "bob", "--wait-for", "alice", "--receive", "alice", "--publish",
        ])
        let bobSaw = try await lines(of: bob) { $0.hasPrefix("ICE candidate for the subscription to alice") }
        #expect(bobSaw.contains("published (no real media: the offer is PeerManager's and nothing is sent)"))
        #expect(bobSaw.contains("subscribed to alice"))
        let aliceSaw = try await lines(of: alice) { $0.hasPrefix("ICE candidate for the subscription to bob") }
        #expect(aliceSaw.contains("subscribed to bob") && aliceSaw.contains("participant published: bob [webcam]"))
        // In causal order: bob's publication is printed before alice's subscription to it (issue 31 item 20)
        let published = aliceSaw.firstIndex(of: "participant published: bob [webcam]")
        let subscribed = aliceSaw.firstIndex(of: "subscribed to bob")
        #expect(published != nil && subscribed != nil && published! < subscribed!, "\(aliceSaw)")
        #expect(aliceSaw.contains { $0.hasPrefix("ICE candidate for the published stream") })

        server.child.send(SIGINT)
        for child in [alice, bob] {
            #expect(try await child.exitStatus() == 5)
            let stderr = await child.stderr
            #expect(!stderr.contains("cannot"), "\(stderr)")
        }
        #expect(try await server.child.exitStatus() == 0)
    }

}
