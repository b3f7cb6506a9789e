import Foundation
import JSONRPC
import RoomClient
import TestSupport
import Testing

/// `room-join`'s options against the built `room-server`, with a `RoomClient` as the other participant.
@Suite("room-join options")
struct RoomJoinOptionsTests {
    @Test("--wait-for and --expect-peers hold the messages until bob is in; --duration leaves and exits 0")
    func waitsThenActsThenLeaves() async throws {
        let server = try await RoomServerProcess.start()
        let roomJoin = try ChildProcess("room-join", [
            server.url, "--room", "room1", "--user", "alice", "--wait-for", "bob", "--expect-peers", "1",
            "--message", "hi all", "--private", "bob:psst: a secret", "--duration", "0.2",
        ])
        #expect(try await roomJoin.lineAfterConnecting() == "joined room1 as alice; participants: none")
        // bob listens before he joins: alice's messages may arrive before his join result does
        let bob = RoomClient(room: Room(username: "bob", roomName: "room1", url: server.url),
                             configuration: .init(reconnect: .off))
        let bobSees = bob.events
        try await bob.join()
        try await firstEvent(bobSees, "bob to get alice's message") { $0 == .message("hi all", from: "alice") }
        try await firstEvent(bobSees, "bob to get alice's private message") {
            $0 == .privateMessage("psst: a secret", from: "alice")
        }
        try await firstEvent(bobSees, "bob to see alice leave") { $0 == .participantLeft(Peer(identifier: "alice")) }
        #expect(try await roomJoin.exitStatus() == 0)
        let lines = await roomJoin.remainingLines()
        #expect(lines.contains("participant joined: bob") && lines.last == "left room1", "\(lines)")
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
    }

    @Test("a participant who never comes exits 5 after --wait-timeout; a malformed --private exits 2")
    func waitTimesOut() async throws {
        let server = try await RoomServerProcess.start()
        let roomJoin = try ChildProcess("room-join", [
            server.url, "--room", "room1", "--user", "alice", "--wait-for", "carol", "--wait-timeout", "0.2",
        ])
        #expect(try await roomJoin.exitStatus() == 5)
        #expect(await roomJoin.stderr.contains("timed out waiting for carol"))
        let usage = try ChildProcess("room-join", [server.url, "--room", "r", "--user", "a", "--private", "nocolon"])
        #expect(try await usage.exitStatus() == 2)
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
    }

    @Test("SIGINT leaves the room cleanly (bob sees alice leave, not a dropped socket) and exits 130")
    func interrupt() async throws {
        let server = try await RoomServerProcess.start()
        let (bob, _) = try await joined("bob", at: server.url)
        let bobSees = bob.events
        let roomJoin = try ChildProcess("room-join", [server.url, "--room", "room1", "--user", "alice"])
        #expect(try await roomJoin.lineAfterConnecting() == "joined room1 as alice; participants: bob")
        try await firstEvent(bobSees, "bob to see alice join") { $0 == .participantJoined(Peer(identifier: "alice")) }
        roomJoin.send(SIGINT)
        #expect(try await roomJoin.exitStatus() == 130)
        #expect(await roomJoin.remainingLines().last == "left room1")
        try await firstEvent(bobSees, "bob to see alice leave") { $0 == .participantLeft(Peer(identifier: "alice")) }
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
    }

    @Test("wss: --ca-file trusts a CA, --insecure a self-signed certificate of another name; else exit 3")
    func tls() async throws {
        let signed = try TLSFixture.make()
        let selfSigned = try TLSFixture.makeSelfSigned(subjectAltName: "DNS:elsewhere.invalid")
        for (fixture, trust) in [(signed, ["--ca-file", signed.caFile]), (selfSigned, ["--insecure"])] {
            let server = try await RoomServerProcess.start(
                ["--tls-cert", fixture.certificateFile, "--tls-key", fixture.privateKeyFile])
            let trusted = try ChildProcess("room-join",
                                           [server.url, "--room", "room1", "--user", "alice", "--duration", "0.01"] + trust)
            let status = try await trusted.exitStatus(), stderr = await trusted.stderr
            #expect(status == 0, "\(trust): \(stderr)")
            #expect(await trusted.remainingLines().prefix(3) == [
                "connection connecting", "connection connected", "joined room1 as alice; participants: none",
            ])
            let untrusted = try ChildProcess("room-join", [server.url, "--room", "room1", "--user", "carol"])
            #expect(try await untrusted.exitStatus() == 3)
            server.child.send(SIGTERM)
            #expect(try await server.child.exitStatus() == 0)
        }
    }
}
