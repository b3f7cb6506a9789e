import Foundation
import TestSupport
import Testing

/// `room-server --tls-cert --tls-key` as a process (docs/operations.md#tls): forward-secret ciphers only, and the
/// certificate reloaded on SIGHUP. `openssl s_client` reads what it serves; without openssl the tests skip, and fail
/// then under `CI=true`.
@Suite struct RoomServerTLSCLITests {
    static let missing: String? = OpenSSLProbe.isAvailable ? nil : "openssl is not installed"

    /// `room-server` serving `fixture`'s certificate; its port.
    static func start(_ fixture: TLSFixture) async throws -> (RoomServerProcess, Int) {
        let server = try await RoomServerProcess.start(["--tls-cert", fixture.certificateFile,
                                                        "--tls-key", fixture.privateKeyFile])
        let port = try #require(RawHTTPClient.port(of: server.url), "no port in \(server.url)")
        #expect(server.url.hasPrefix("wss://"))
        return (server, port)
    }

    @Test(.enabled(if: missing == nil || isCI, "needs openssl"))
    func sighupServesTheRenewedCertificateWithoutARestart() async throws {
        let fixture = try TLSFixture.make()
        let (server, port) = try await Self.start(fixture)
        let before = try await OpenSSLProbe.handshake(port: port)
        #expect(before.subject?.contains("test-server") == true, "\(before.output)")
        #expect(!(try await OpenSSLProbe.handshake(port: port, ["-tls1_2", "-cipher", "AES128-SHA"])).succeeded)

        // When the files are renewed and the process gets SIGHUP, new handshakes get the new certificate
        try fixture.renew(commonName: "renewed-server")
        server.child.send(SIGHUP)
        try await waitUntil("the renewed certificate served", timeout: .seconds(20), asyncCondition: {
            (try? await OpenSSLProbe.handshake(port: port))?.subject?.contains("renewed-server") == true
        })
        let after = try await OpenSSLProbe.handshake(port: port)
        #expect(after.serial != nil && after.serial != before.serial)

        // A renewal caught halfway (the key of another certificate) is refused, and the process goes on with the one
        // it had, saying why on stderr
        let renewed = try Data(contentsOf: URL(fileURLWithPath: fixture.certificateFile))
        try fixture.renew(commonName: "third-server")
        try renewed.write(to: URL(fileURLWithPath: fixture.certificateFile))
        server.child.send(SIGHUP)
        try await waitUntil("the refusal logged", timeout: .seconds(20)) {
            server.child.stderrSoFar.contains("the private key does not belong to the certificate")
        }
        #expect(try await OpenSSLProbe.handshake(port: port).serial == after.serial)
        // Then SIGHUP again with usable files: the refusal changed nothing for the next reload
        try fixture.renew(commonName: "fourth-server")
        server.child.send(SIGHUP)
        try await waitUntil("the fourth certificate served", timeout: .seconds(20), asyncCondition: {
            (try? await OpenSSLProbe.handshake(port: port))?.subject?.contains("fourth-server") == true
        })

        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
        let log = await server.child.stderr
        #expect(log.contains("TLS certificate reloaded"), "\(log)")
        #expect(log.contains("the private key does not belong to the certificate"), "\(log)")
    }

    /// Issue 31, item 8: the server offered `h2` in ALPN but serves HTTP/1.1 only, so curl (and every browser)
    /// got 426 on the operations routes over TLS.
    @Test(.enabled(if: (missing == nil && CurlProbe.isAvailable) || isCI, "needs openssl and curl"))
    func anHTTP2ClientGetsTheOperationsRoutesOverTLS() async throws {
        let fixture = try TLSFixture.make()
        let (server, port) = try await Self.start(fixture)
        // An ALPN list preferring h2 gets http/1.1, the one protocol served
        let handshake = try await OpenSSLProbe.handshake(port: port, ["-alpn", "h2,http/1.1"])
        #expect(handshake.succeeded, "\(handshake.output)")
        #expect(handshake.alpnProtocol == "http/1.1", "\(handshake.output)")
        // And curl --http2 gets /healthz and the other routes answered, over HTTP/1.1
        let base = "https://127.0.0.1:\(port)"
        let healthz = try await CurlProbe.fetch(base + "/healthz", ["--http2", "--cacert", fixture.caFile])
        #expect(healthz.status == 200 && healthz.output == "ok\n", "\(healthz)")
        #expect(healthz.httpVersion == "1.1", "\(healthz)")
        for (path, status) in [("/readyz", 200), ("/metrics", 200), ("/rooms", 404), ("/dashboard", 404)] {
            let fetch = try await CurlProbe.fetch(base + path, ["--http2", "--cacert", fixture.caFile])
            #expect(fetch.status == status, "\(path): \(fetch)")
        }
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
    }

    @Test func sighupWithoutTLSNeitherStopsTheProcessNorReloadsAnything() async throws {
        let server = try await RoomServerProcess.start()
        let port = try #require(RawHTTPClient.port(of: server.url))
        server.child.send(SIGHUP)
        server.child.send(SIGHUP)
        #expect(try await RawHTTPClient.get(port: port, "/healthz").status == 200)
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
        #expect(await server.child.stderr.contains("no TLS certificate to reload"))
    }
}
