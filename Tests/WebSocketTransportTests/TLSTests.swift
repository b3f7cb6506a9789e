import Foundation
import TestSupport
import Testing
import WebSocketTransport

/// `wss://` with a CA and server certificate made by the test (SAN `IP:127.0.0.1,DNS:localhost`).
@Suite struct TLSTests {
    static func secureEcho(_ fixture: TLSFixture) async throws -> EchoServer {
        var configuration = WebSocketServerConfiguration()
        configuration.tls = (fixture.certificateFile, fixture.privateKeyFile)
        return try await EchoServer.start(configuration)
    }

    @Test func untrustedCertificateFailsByDefault() async throws {
        let fixture = try TLSFixture.make()
        let echo = try await Self.secureEcho(fixture)
        let error = await #expect(throws: TransportError.self) {
            _ = try await WebSocketConnection.connect(to: "wss://127.0.0.1:\(echo.server.port)/")
        }
        guard case .tlsCertificateUntrusted? = error else {
            Issue.record("expected tlsCertificateUntrusted, got \(String(describing: error))")
            return
        }
        await echo.stop()
    }

    /// `https://` dials as `wss://` (docs/wire-protocol.md#stock-kurento).
    @Test(arguments: ["wss://127.0.0.1", "wss://localhost", "https://127.0.0.1"])
    func configuredCASucceedsWithHostnameChecksOn(origin: String) async throws {
        let fixture = try TLSFixture.make()
        let echo = try await Self.secureEcho(fixture)
        var configuration = WebSocketClientConfiguration()
        configuration.tls = TLSClientConfiguration(caFile: fixture.caFile)
        let connection = try await WebSocketConnection.connect(
            to: "\(origin):\(echo.server.port)/", configuration: configuration)
        try await connection.send(text: "over tls")
        #expect(try await nextMessage(connection) == .text("over tls"))
        await connection.close()
        await echo.stop()
    }

    @Test func rightCAWithWrongNameFailsWithHostnameError() async throws {
        let fixture = try TLSFixture.make(subjectAltName: "DNS:other.example")
        let echo = try await Self.secureEcho(fixture)
        var configuration = WebSocketClientConfiguration()
        configuration.tls = TLSClientConfiguration(caFile: fixture.caFile)
        let error = await #expect(throws: TransportError.self) {
            _ = try await WebSocketConnection.connect(to: "wss://127.0.0.1:\(echo.server.port)/", configuration: configuration)
        }
        guard case .tlsHostnameMismatch? = error else {
            Issue.record("expected tlsHostnameMismatch, got \(String(describing: error))")
            return
        }
        await echo.stop()
    }

    @Test func selfSignedAcceptedOnlyWhenAllowedExplicitly() async throws {
        let fixture = try TLSFixture.makeSelfSigned()
        let echo = try await Self.secureEcho(fixture)
        await #expect(throws: TransportError.self) {
            _ = try await WebSocketConnection.connect(to: "wss://127.0.0.1:\(echo.server.port)/")
        }
        var configuration = WebSocketClientConfiguration()
        configuration.tls = TLSClientConfiguration(allowSelfSigned: true, skipHostnameCheck: true)
        let connection = try await WebSocketConnection.connect(
            to: "wss://127.0.0.1:\(echo.server.port)/", configuration: configuration)
        try await connection.send(text: "insecure on purpose")
        #expect(try await nextMessage(connection) == .text("insecure on purpose"))
        await connection.close()
        await echo.stop()
    }
}
