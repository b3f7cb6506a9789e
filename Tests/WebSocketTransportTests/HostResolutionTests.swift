import Foundation
import SignalingSupport
import TestSupport
import Testing
import WebSocketTransport

/// Host names are resolved off the service thread (lws 4.1.6 would call a blocking `getaddrinfo` on it), within
/// the handshake timeout; lws dials the address while the `Host` header and TLS checks keep the name.
@Suite struct HostResolutionTests {
    /// Maps `*.test` names to 127.0.0.1; `slow.test` never answers (until its task is cancelled, which never
    /// happens: only the deadline ends the wait).
    static let testResolver = HostResolver { host in
        if host == "slow.test" {
            await Gate().wait()
            return []
        }
        guard host.hasSuffix(".test") else { throw TransportError.connectFailed("unknown host \(host)") }
        return ["127.0.0.1"]
    }

    @Test func aResolverThatHangsTimesOutItsOwnConnectAndHoldsUpNoOtherConnection() async throws {
        // Given an echo server and a client configuration whose resolver hangs on slow.test
        let echo = try await EchoServer.start()
        var configuration = WebSocketClientConfiguration()
        configuration.resolver = Self.testResolver
        configuration.handshakeTimeout = .milliseconds(300)

        // When a connect to slow.test is under way
        let slow = Task { try await WebSocketConnection.connect(to: "ws://slow.test:\(echo.server.port)/", configuration: configuration) }

        // Then another connection, by address, is served meanwhile
        let other = try await WebSocketConnection.connect(to: echo.url)
        try await other.send(text: "still served")
        #expect(try await nextMessage(other) == .text("still served"))

        // And the slow one fails with a handshake timeout once its budget is spent
        let error = await #expect(throws: TransportError.self) {
            _ = try await withDeadline(.seconds(10), "the slow connect to fail") { try await slow.value }
        }
        guard case .handshakeTimeout? = error else {
            Issue.record("expected handshakeTimeout, got \(String(describing: error))")
            return
        }
        await other.close()
        await echo.stop()
    }

    @Test func aResolvedNameIsDialledByAddressAndSentAsTheHostHeader() async throws {
        // Given a server that records the Host header of each upgrade
        let hosts = LockedValue<[String]>([])
        var server = WebSocketServerConfiguration()
        server.upgradeFilter = { request in
            hosts.withLock { $0.append(request.headers["host"] ?? "") }
            return .accept
        }
        let echo = try await EchoServer.start(server)
        var configuration = WebSocketClientConfiguration()
        configuration.resolver = Self.testResolver

        // When a client dials room.test, which the resolver maps to 127.0.0.1
        let connection = try await WebSocketConnection.connect(to: "ws://room.test:\(echo.server.port)/", configuration: configuration)
        try await connection.send(text: "hello")

        // Then it reached the server, and the Host header names room.test
        #expect(try await nextMessage(connection) == .text("hello"))
        #expect(hosts.withLock { $0 } == ["room.test:\(echo.server.port)"])

        // And a name the resolver refuses fails the connect with its reason
        await #expect(throws: TransportError.connectFailed("unknown host nowhere.example")) {
            _ = try await WebSocketConnection.connect(to: "ws://nowhere.example:\(echo.server.port)/", configuration: configuration)
        }
        await connection.close()
        await echo.stop()
    }

    @Test func tlsStillChecksTheCertificateAgainstTheNameNotTheAddress() async throws {
        // Given a server whose certificate names only room.test, and a client that trusts its CA
        let fixture = try TLSFixture.make(subjectAltName: "DNS:room.test")
        let echo = try await TLSTests.secureEcho(fixture)
        var configuration = WebSocketClientConfiguration()
        configuration.tls = TLSClientConfiguration(caFile: fixture.caFile)
        configuration.resolver = Self.testResolver

        // Then wss://room.test succeeds, although lws dials 127.0.0.1
        let connection = try await WebSocketConnection.connect(to: "wss://room.test:\(echo.server.port)/", configuration: configuration)
        try await connection.send(text: "named")
        #expect(try await nextMessage(connection) == .text("named"))

        // And wss://127.0.0.1, which the certificate does not name, fails the hostname check
        let error = await #expect(throws: TransportError.self) {
            _ = try await WebSocketConnection.connect(to: "wss://127.0.0.1:\(echo.server.port)/", configuration: configuration)
        }
        guard case .tlsHostnameMismatch? = error else {
            Issue.record("expected tlsHostnameMismatch, got \(String(describing: error))")
            return
        }
        await connection.close()
        await echo.stop()
    }

    @Test func theSystemResolverFindsLocalhost() async throws {
        let echo = try await EchoServer.start()
        let connection = try await WebSocketConnection.connect(to: "ws://localhost:\(echo.server.port)/")
        try await connection.send(text: "local")
        #expect(try await nextMessage(connection) == .text("local"))
        await connection.close()
        await echo.stop()
    }
}

extension HostResolutionTests {
    @Test func aConnectWhoseTaskIsAlreadyCancelledEndsWithoutWaitingForTheResolver() async throws {
        // Given a resolver that hangs on slow.test and a budget far beyond the test's deadline
        var configuration = WebSocketClientConfiguration()
        configuration.resolver = Self.testResolver
        configuration.handshakeTimeout = .seconds(600)

        // When the connect runs in a task that was cancelled before it started resolving
        let outcome = LockedValue<String?>(nil)
        Task {
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                _ = try await WebSocketConnection.connect(to: "ws://slow.test:9/", configuration: configuration)
                outcome.withLock { $0 = "connected" }
            } catch {
                outcome.withLock { $0 = "\(error)" }
            }
        }

        // Then it fails at once instead of waiting out the lookup (or the budget)
        try await waitUntil("the cancelled connect to end") { outcome.withLock { $0 } != nil }
        #expect(outcome.withLock { $0 }?.contains("cancelled") == true, "\(String(describing: outcome.withLock { $0 }))")
    }
}
