import Foundation
import JSONRPC
import RoomClient
import TestSupport
import Testing

/// What `room-join` does with what a user types or pipes in (issue 31): piped chat paced to the server's request
/// limit, over-limit lines refused locally, names checked before connecting, commands that need an option.
@Suite("room-join input")
struct RoomJoinInputTests {
    @Test("300 piped lines then /leave against room-server's 100 requests per second: bob gets all 300, in order")
    func pipedFlood() async throws {
        let server = try await RoomServerProcess.start()
        let (bob, _) = try await joined("bob", at: server.url)
        let texts = Self.messages(to: bob, from: "alice")
        let alice = try ChildProcess("room-join", [server.url, "--room", "room1", "--user", "alice", "--interactive"],
                                     writableInput: true)
        #expect(try await alice.lineAfterConnecting() == "joined room1 as alice; participants: bob")

        try alice.write((1...300).map { "\($0)\n" }.joined() + "/leave\n")

        #expect(try await texts.value == (1...300).map(String.init))
        #expect(try await alice.exitStatus(within: .seconds(30)) == 0)
        let stderr = await alice.stderr
        #expect(!stderr.contains("rate limited") && !stderr.contains("cannot send"), "\(stderr)")
        await bob.disconnect()
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
    }

    @Test("a 2 MB line is refused locally, naming its size and the server's chat limit; the session goes on")
    func oversizeLine() async throws {
        let server = try await RoomServerProcess.start()
        let (bob, _) = try await joined("bob", at: server.url)
        let texts = Self.messages(to: bob, from: "alice")
        let alice = try ChildProcess("room-join", [server.url, "--room", "room1", "--user", "alice", "--interactive"],
                                     writableInput: true)
        #expect(try await alice.lineAfterConnecting() == "joined room1 as alice; participants: bob")

        try alice.write(String(repeating: "x", count: 2_000_000) + "\nafter\n/leave\n")

        #expect(try await texts.value == ["after"])
        #expect(try await alice.exitStatus() == 0)
        let stderr = await alice.stderr
        #expect(stderr.contains("message too large: 2000000 bytes, the limit is 8 KiB"), "\(stderr)")
        await bob.disconnect()
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
    }

    @Test("a --message over the server's chat limit is refused locally; the next --message is sent")
    func oversizeMessageOption() async throws {
        let server = try await RoomServerProcess.start()
        let (bob, _) = try await joined("bob", at: server.url)
        let texts = Self.messages(to: bob, from: "alice")
        let alice = try ChildProcess("room-join", [server.url, "--room", "room1", "--user", "alice",
                                                   "--message", String(repeating: "x", count: 9_000),
                                                   "--message", "after", "--duration", "0.5"])

        #expect(try await texts.value == ["after"])
        #expect(try await alice.exitStatus() == 0)
        let stderr = await alice.stderr
        #expect(stderr.contains("message too large: 9000 bytes, the limit is 8 KiB"), "\(stderr)")
        await bob.disconnect()
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
    }

    @Test("bad names and an empty room are usage errors (exit 2) found before connecting")
    func badNames() async throws {
        // Nothing listens on port 9: a run that tried to connect would exit 3.
        let cases: [([String], String)] = [
            (["--room", "", "--user", "alice"], "--room must not be empty"),
            (["--room", "r", "--user", "a_b"], "--user: User name 'a_b' must not contain '_'"),
            (["--room", "r\u{7}", "--user", "alice"], "--room: Room name"),
            (["--room", "r", "--user", String(repeating: "u", count: 300)], "--user: user name of 300 bytes"),
            (["--room", "r", "--user", "alice", "--wait-for", "b_c"], "--wait-for: User name 'b_c'"),
            (["--room", "r", "--user", "alice", "--custom", "[1]"], "JSON object"),
        ]
        for (arguments, expected) in cases {
            let child = try ChildProcess("room-join", ["ws://127.0.0.1:9/room"] + arguments)
            #expect(try await child.exitStatus() == 2, "\(arguments)")
            let stderr = await child.stderr
            #expect(stderr.hasPrefix("room-join: ") && stderr.contains(expected), "\(arguments): \(stderr)")
        }
    }

    @Test("a join while the cluster's Redis is away exits 4 with words, without raw JSON or a session id")
    func clusterUnavailable() async throws {
        let redis = try await RedisServerProcess()
        let server = try await RoomServerProcess.start(["--cluster", redis.url])
        await redis.stop()

        let alice = try ChildProcess("room-join", [server.url, "--room", "room1", "--user", "alice"])

        #expect(try await alice.exitStatus() == 4)
        let stderr = await alice.stderr
        #expect(stderr.contains("join refused: the server's cluster is unavailable"), "\(stderr)")
        #expect(!stderr.contains("sessionId") && !stderr.contains("{"), "\(stderr)")
        server.child.send(SIGTERM)
        _ = try await server.child.exitStatus()
    }

    @Test("/set without --shared-object says a shared object is needed, and the session goes on")
    func setWithoutSharedObject() async throws {
        let server = try await RoomServerProcess.start()
        let (bob, _) = try await joined("bob", at: server.url)
        let texts = Self.messages(to: bob, from: "alice")
        let alice = try ChildProcess("room-join", [server.url, "--room", "room1", "--user", "alice", "--interactive"],
                                     writableInput: true)
        #expect(try await alice.lineAfterConnecting() == "joined room1 as alice; participants: bob")

        try alice.write("/set color red\nstill here\n/leave\n")

        #expect(try await texts.value == ["still here"])
        #expect(try await alice.exitStatus() == 0)
        let stderr = await alice.stderr
        #expect(stderr.contains("/set needs a shared object: start room-join with --shared-object NAME"), "\(stderr)")
        #expect(!stderr.contains("unknown command"), "\(stderr)")
        await bob.disconnect()
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
    }

    @Test("room-join on the Tree path says the URL serves Tree, not Room, without raw JSON or a session id; exit 3")
    func wrongEndpoint() async throws {
        let server = try await RoomServerProcess.start()
        #expect(server.url.hasSuffix("/room"))
        let tree = String(server.url.dropLast("room".count)) + "tree"

        let alice = try ChildProcess("room-join", [tree, "--room", "room1", "--user", "alice"])

        #expect(try await alice.exitStatus() == 3)
        let stderr = await alice.stderr
        #expect(stderr.contains("this URL serves Tree, not Room"), "\(stderr)")
        #expect(!stderr.contains("sessionId") && !stderr.contains("{"), "\(stderr)")
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
    }

    @Test("a refused connection is one line naming 'connection refused'; a server gone for good says every attempt failed")
    func refused() async throws {
        // Given a room-join in a room, and its server killed
        let server = try await RoomServerProcess.start()
        let alice = try ChildProcess("room-join", [server.url, "--room", "room1", "--user", "alice",
                                                   "--reconnect-for", "1"])
        #expect(try await alice.lineAfterConnecting() == "joined room1 as alice; participants: none")
        server.child.send(SIGKILL)
        _ = try await server.child.exitStatus()

        // Then, once its reconnect budget is spent, it says that no attempt could connect, and why
        #expect(try await alice.exitStatus() == 5)
        let ended = await alice.stderr
        #expect(ended.contains("gave up reconnecting") && ended.contains("could not connect): connection refused"),
                "\(ended)")
        #expect(!ended.contains("requestTimeout") && !ended.contains("call again"), "\(ended)")

        // And a new run against the dead port says so in one line
        let late = try ChildProcess("room-join", [server.url, "--room", "room1", "--user", "alice"])
        #expect(try await late.exitStatus() == 3)
        let refused = await late.stderr
        #expect(refused.hasPrefix("room-join: cannot connect to \(server.url): connection refused ("), "\(refused)")
        #expect(refused.split(separator: "\n").count == 1 && !refused.contains("connect failed"), "\(refused)")
    }

    @Test("ws:// to a TLS server and wss:// to a plain one say which to use; an untrusted certificate names --ca-file")
    func tlsMismatch() async throws {
        let fixture = try TLSFixture.make()
        let tls = try await RoomServerProcess.start(["--tls-cert", fixture.certificateFile,
                                                     "--tls-key", fixture.privateKeyFile])
        let plain = try await RoomServerProcess.start()
        let cases: [(String, String)] = [
            ("ws://" + tls.url.dropFirst("wss://".count), "the server speaks TLS; use wss://"),
            ("wss://" + plain.url.dropFirst("ws://".count), "the server does not speak TLS; use ws://"),
            (tls.url, "--ca-file"),
        ]
        for (url, expected) in cases {
            let alice = try ChildProcess("room-join", [url, "--room", "room1", "--user", "alice", "--reconnect-for", "0"])
            #expect(try await alice.exitStatus() == 3, "\(url)")
            let stderr = await alice.stderr
            #expect(stderr.contains(expected), "\(url): \(stderr)")
            #expect(!stderr.contains("TLSClientConfiguration") && !stderr.contains("connect failed: connect failed"),
                    "\(url): \(stderr)")
        }
        for server in [tls, plain] {
            server.child.send(SIGTERM)
            #expect(try await server.child.exitStatus() == 0)
        }
    }

    /// The chat texts bob gets from `user` until `user` leaves (at most 60 s).
    static func messages(to bob: RoomClient, from user: String) -> Task<[String], any Error> {
        let events = bob.events
        return Task {
            try await withDeadline(.seconds(60), "\(user) to leave") {
                var texts: [String] = []
                for try await event in events {
                    switch event {
                    case .message(let text, from: user): texts.append(text)
                    case .participantLeft(let peer) where peer.identifier == user: return texts
                    default: break
                    }
                }
                return texts
            }
        }
    }
}
