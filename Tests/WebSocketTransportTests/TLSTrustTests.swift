import TestSupport
import Testing
@testable import WebSocketTransport

/// Where a `wss://` client finds the CAs it trusts: the system store as OpenSSL finds it, or the configured CA
/// file instead (docs/libwebsockets.md#tls). Each test's client runs on a loop of its own, given its own environment.
@Suite struct TLSTrustTests {
    /// A client loop that sees `environment` instead of the process's.
    static func loop(environment: [String: String]) throws -> WebSocketEventLoop {
        var configuration = WebSocketEventLoopConfiguration()
        configuration.environment = environment
        return try WebSocketEventLoop(configuration: configuration)
    }

    /// Connects through `loop` to `echo` and gets one message back.
    static func echoOnce(
        _ echo: EchoServer, loop: WebSocketEventLoop, tls: TLSClientConfiguration = .init()
    ) async throws {
        var configuration = WebSocketClientConfiguration()
        configuration.tls = tls
        let connection = try await WebSocketConnection.connect(
            to: "wss://127.0.0.1:\(echo.server.port)/", configuration: configuration, loop: loop)
        try await connection.send(text: "trusted")
        #expect(try await nextMessage(connection) == .text("trusted"))
        await connection.close()
    }

    @Test func theSystemStoreIsWhereOpenSSLLooksForIt() throws {
        // Given OpenSSL's own directory, as its command line tool reports it
        let openSSLDirectory = try TLSFixture.openSSLDirectory()

        // When the system store is located without and with OpenSSL's variables, and with a CA file configured
        let defaults = CATrust.systemStore(environment: { _ in nil })
        let variables = ["SSL_CERT_FILE": "/etc/my/ca.pem", "SSL_CERT_DIR": "/etc/my/certs:/etc/more"]
        let fromVariables = CATrust.systemStore(environment: { variables[$0] })
        let configured = CATrust.forClient(.init(caFile: "/srv/ca.pem"), environment: { variables[$0] })
        let empty = CATrust.systemStore(environment: { _ in "" })

        // Then they are OpenSSL's default file and directory (also for empty variables), the variables' values, and
        // the configured file alone
        #expect(defaults == CATrust(file: openSSLDirectory + "/cert.pem", directory: openSSLDirectory + "/certs"))
        #expect(empty == defaults)
        #expect(fromVariables == CATrust(file: "/etc/my/ca.pem", directory: "/etc/my/certs:/etc/more"))
        #expect(configured == CATrust(file: "/srv/ca.pem", directory: nil))
    }

    @Test func aServerWhoseCAIsInSSLCertFileIsTrustedWithoutConfiguration() async throws {
        // Given a server whose CA is the bundle SSL_CERT_FILE names
        let fixture = try TLSFixture.make()
        let echo = try await TLSTests.secureEcho(fixture)
        let loop = try Self.loop(environment: ["SSL_CERT_FILE": fixture.caFile])

        // When a client with the default trust settings connects
        // Then the server's certificate is trusted
        try await Self.echoOnce(echo, loop: loop)
        await echo.stop()
        await loop.shutdown()
    }

    @Test func aServerWhoseCAIsInSSLCertDirIsTrustedWithoutConfiguration() async throws {
        // Given a server whose CA is in the hashed directory SSL_CERT_DIR names
        let fixture = try TLSFixture.make()
        let echo = try await TLSTests.secureEcho(fixture)
        let loop = try Self.loop(environment: ["SSL_CERT_DIR": try fixture.hashedCADirectory()])

        // When a client with the default trust settings connects
        // Then the server's certificate is trusted
        try await Self.echoOnce(echo, loop: loop)
        await echo.stop()
        await loop.shutdown()
    }

    @Test func aConfiguredCAFileIsTrustedInsteadOfTheSystemStore() async throws {
        // Given a server the system store trusts (its CA is SSL_CERT_FILE), and a client configured with another CA
        let fixture = try TLSFixture.make()
        let other = try TLSFixture.make()
        let echo = try await TLSTests.secureEcho(fixture)
        let loop = try Self.loop(environment: ["SSL_CERT_FILE": fixture.caFile])

        // When the client connects
        // Then the server is untrusted: the configured file is all the client trusts
        let error = await #expect(throws: TransportError.self) {
            try await Self.echoOnce(echo, loop: loop, tls: TLSClientConfiguration(caFile: other.caFile))
        }
        guard case .tlsCertificateUntrusted? = error else {
            Issue.record("expected tlsCertificateUntrusted, got \(String(describing: error))")
            return
        }
        // And the same client trusts it with the default settings
        try await Self.echoOnce(echo, loop: loop)
        await echo.stop()
        await loop.shutdown()
    }

    @Test func loopsStartingAndStoppingDoNotBreakTLSHandshakesOfAnotherLoop() async throws {
        // Given a TLS server, and clients that trust its CA
        let fixture = try TLSFixture.make()
        let echo = try await TLSTests.secureEcho(fixture)
        var trusting = WebSocketClientConfiguration()
        trusting.tls = TLSClientConfiguration(caFile: fixture.caFile)
        let configuration = trusting

        // When 40 clients handshake on the shared loop while 8 other loops start and stop
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    let connection = try await WebSocketConnection.connect(
                        to: "wss://127.0.0.1:\(echo.server.port)/", configuration: configuration)
                    await connection.close()
                }
            }
            group.addTask {
                for _ in 0..<8 { await (try WebSocketEventLoop()).shutdown() }
            }
            // Then every handshake succeeds (lws 4.1.6 re-acquired its OpenSSL indexes in every new context)
            try await group.waitForAll()
        }
        await echo.stop()
    }
}
