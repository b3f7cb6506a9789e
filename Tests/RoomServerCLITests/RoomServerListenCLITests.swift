import Foundation
import RoomClient
import TestSupport
import Testing

/// Where the built `room-server` listens (issue 31, items 7 and 14): a host name is resolved and bound, the URLs
/// printed name the port really bound and are dialable, and a listen that fails says why, exiting 1.
@Suite("room-server listening")
struct RoomServerListenCLITests {
    @Test("--host localhost --port 0 prints the port really bound, and the Room and Tree URLs printed are dialable")
    func aHostNameIsResolvedAndItsPortPrinted() async throws {
        // Given room-server told a name, not an address
        let server = try await RoomServerProcess.start(["--host", "localhost"])
        // Then line 1 is the Room URL with the name and a real port, line 2 the Tree URL beside it
        #expect(server.url.hasPrefix("ws://localhost:") && server.url.hasSuffix("/room"), "\(server.url)")
        let port = try #require(RawHTTPClient.port(of: server.url), "no port in \(server.url)")
        #expect(port != 0)
        #expect(try await server.child.nextLine() == "ws://localhost:\(port)/tree")
        // And something listens there: the name's address answers, and a Room client dialing the URL joins
        #expect(try await RawHTTPClient.get(port: port, "/healthz").text == "ok\n")
        let (alice, _) = try await joined("alice", at: server.url)
        await alice.disconnect()

        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
    }

    @Test("a host name that does not resolve exits 1, saying so")
    func anUnresolvableHostExitsOne() async throws {
        let child = try ChildProcess("room-server", ["--host", "no-such-host.invalid"])
        #expect(try await child.exitStatus(within: .seconds(30)) == 1)
        let stderr = await child.stderr
        #expect(stderr.contains("room-server: cannot listen on no-such-host.invalid:0: cannot resolve no-such-host.invalid"),
                "\(stderr)")
        #expect(await child.remainingLines().isEmpty)
    }

    @Test("a port in use, an address that is not local and an unreadable TLS file each exit 1 with the reason")
    func aFailedListenSaysWhy() async throws {
        let server = try await RoomServerProcess.start()
        let port = try #require(RawHTTPClient.port(of: server.url))
        let fixture = try TLSFixture.make()
        let missing = fixture.certificateFile + ".missing"
        for (arguments, reason) in [
            (["--port", "\(port)"], "room-server: cannot listen on 127.0.0.1:\(port): address already in use"),
            // 192.0.2.1 (TEST-NET-1, RFC 5737) is no address of this machine.
            (["--host", "192.0.2.1"], "room-server: cannot listen on 192.0.2.1:0: cannot assign requested address"),
            (["--tls-cert", missing, "--tls-key", fixture.privateKeyFile],
             "room-server: cannot listen on 127.0.0.1:0: cannot read the TLS certificate file \(missing): "
                + "no such file or directory"),
        ] {
            let child = try ChildProcess("room-server", arguments)
            #expect(try await child.exitStatus() == 1, "\(arguments)")
            let stderr = await child.stderr
            #expect(stderr.contains(reason), "\(arguments): \(stderr)")
            #expect(!stderr.contains("(in use, not a local address, or bad TLS files)"), "\(arguments): \(stderr)")
        }
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
    }
}
