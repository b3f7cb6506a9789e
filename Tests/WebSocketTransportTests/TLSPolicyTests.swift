import Foundation
import TestSupport
import Testing
import WebSocketTransport

/// What a `wss://` server offers (docs/libwebsockets.md#tls): forward-secret AEAD ciphers only, and a certificate
/// that can be replaced while it runs. `openssl s_client` is the client (an independent witness); the tests skip
/// without it, and fail then under `CI=true`.
@Suite struct TLSPolicyTests {
    static let missing: String? = OpenSSLProbe.isAvailable ? nil : "openssl is not installed"

    /// A TLS echo server on a fresh fixture.
    static func server() async throws -> (TLSFixture, EchoServer) {
        let fixture = try TLSFixture.make()
        return (fixture, try await TLSTests.secureEcho(fixture))
    }

    @Test(.enabled(if: missing == nil || isCI, "needs openssl"),
          arguments: ["AES128-SHA", "AES256-SHA256", "AES128-GCM-SHA256", "DHE-RSA-AES128-SHA"])
    func aTLS12CipherWithoutForwardSecrecyOrAEADIsRefused(_ cipher: String) async throws {
        let (_, echo) = try await Self.server()
        let handshake = try await OpenSSLProbe.handshake(port: echo.server.port, ["-tls1_2", "-cipher", cipher])
        #expect(!handshake.succeeded, "\(cipher) was accepted: \(handshake.output)")
        await echo.stop()
    }

    @Test(.enabled(if: missing == nil || isCI, "needs openssl"),
          arguments: ["ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-RSA-CHACHA20-POLY1305"])
    func ecdheWithAEADIsAcceptedOnTLS12(_ cipher: String) async throws {
        let (_, echo) = try await Self.server()
        let handshake = try await OpenSSLProbe.handshake(port: echo.server.port, ["-tls1_2", "-cipher", cipher])
        #expect(handshake.succeeded, "\(cipher) was refused: \(handshake.output)")
        #expect(handshake.cipher == cipher)
        await echo.stop()
    }

    @Test(.enabled(if: missing == nil || isCI, "needs openssl"))
    func tls13IsAcceptedWithItsDefaultSuites() async throws {
        let (_, echo) = try await Self.server()
        let handshake = try await OpenSSLProbe.handshake(port: echo.server.port, ["-tls1_3"])
        #expect(handshake.succeeded, "\(handshake.output)")
        #expect(handshake.cipher?.hasPrefix("TLS_") == true)
        await echo.stop()
    }

    @Test(.enabled(if: missing == nil || isCI, "needs openssl"))
    func aReloadServesTheRenewedCertificateAndKeepsOpenConnections() async throws {
        let (fixture, echo) = try await Self.server()
        let port = echo.server.port
        let before = try await OpenSSLProbe.handshake(port: port)
        #expect(before.subject?.contains("test-server") == true, "\(before.output)")
        var client = WebSocketClientConfiguration()
        client.tls = TLSClientConfiguration(caFile: fixture.caFile)
        let open = try await WebSocketConnection.connect(to: "wss://127.0.0.1:\(port)/", configuration: client)

        // When the files are renewed and the server reloads them
        try fixture.renew(commonName: "renewed-server")
        try await echo.server.reloadCertificate()

        // Then new handshakes get the new certificate, and the connection made before goes on
        let after = try await OpenSSLProbe.handshake(port: port)
        #expect(after.subject?.contains("renewed-server") == true, "\(after.output)")
        #expect(after.serial != nil && after.serial != before.serial)
        try await open.send(text: "still here")
        #expect(try await nextMessage(open) == .text("still here"))
        let fresh = try await WebSocketConnection.connect(to: "wss://127.0.0.1:\(port)/", configuration: client)
        try await fresh.send(text: "new")
        #expect(try await nextMessage(fresh) == .text("new"))
        await open.close()
        await fresh.close()
        await echo.stop()
    }

    @Test(.enabled(if: missing == nil || isCI, "needs openssl"))
    func aReloadOfUnusableFilesFailsAndKeepsTheCertificateItHad() async throws {
        let (fixture, echo) = try await Self.server()
        let port = echo.server.port
        let before = try await OpenSSLProbe.handshake(port: port)

        // A key that does not belong to the certificate (a renewal caught halfway), then a file that is no PEM
        let certificate = try Data(contentsOf: URL(fileURLWithPath: fixture.certificateFile))
        try fixture.renew(commonName: "renewed-server")
        try certificate.write(to: URL(fileURLWithPath: fixture.certificateFile))
        await #expect(throws: TransportError.self) { try await echo.server.reloadCertificate() }
        try Data("not a certificate".utf8).write(to: URL(fileURLWithPath: fixture.certificateFile))
        await #expect(throws: TransportError.self) { try await echo.server.reloadCertificate() }

        let after = try await OpenSSLProbe.handshake(port: port)
        #expect(after.succeeded, "\(after.output)")
        #expect(after.serial == before.serial)
        await echo.stop()
    }

    @Test func aPolicyOpenSSLCannotUseFailsTheListenAndTheConnect() async throws {
        let fixture = try TLSFixture.make()
        let unusable = TLSCipherPolicy(tls12Ciphers: "NO-SUCH-CIPHER", tls13Suites: TLSCipherPolicy.forwardSecret.tls13Suites)
        var server = WebSocketServerConfiguration()
        server.tls = (fixture.certificateFile, fixture.privateKeyFile)
        server.tlsPolicy = unusable
        let listen = await #expect(throws: TransportError.self) { _ = try await WebSocketServer.start(server) }
        #expect("\(listen.map { String(describing: $0) } ?? "")".contains("TLS 1.2 cipher"))

        let echo = try await TLSTests.secureEcho(fixture)
        var client = WebSocketClientConfiguration()
        client.tls = TLSClientConfiguration(caFile: fixture.caFile, policy: unusable)
        let connect = await #expect(throws: TransportError.self) {
            _ = try await WebSocketConnection.connect(to: "wss://127.0.0.1:\(echo.server.port)/", configuration: client)
        }
        guard case .tlsFailure(let reason)? = connect else {
            Issue.record("expected tlsFailure, got \(String(describing: connect))")
            return
        }
        #expect(reason.contains("TLS 1.2 cipher"))
        await echo.stop()
    }

    @Test func aServerWithoutTLSHasNothingToReload() async throws {
        let echo = try await EchoServer.start(WebSocketServerConfiguration())
        await #expect(throws: TransportError.self) { try await echo.server.reloadCertificate() }
        await echo.stop()
    }
}
