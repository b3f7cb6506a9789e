import Foundation
import RoomServer
import Testing
import TestSupport

/// Issue 34, item 3: the operations endpoints' URLs (``RoomServer/healthURL`` and its neighbours) are read from the
/// server, never built from ``RoomServer/url``, and answer on the main port, on the second listener and over TLS.
@Suite struct OperationsURLTests {
    static let token = "tok-0123456789abcdef"

    /// `GET url` over raw HTTP (plain `http://` URLs only).
    static func get(_ url: String, headers: [String: String] = [:]) async throws -> RawHTTPResponse {
        let parts = try #require(URLComponents(string: url))
        #expect(parts.scheme == "http", "\(url)")
        return try await RawHTTPClient.get(port: try #require(parts.port), parts.path, headers: headers)
    }

    @Test func onTheMainPortEveryURLAnswers() async throws {
        let server = try await RoomServer.start(.init(operations: .init(adminToken: Self.token,
                                                                        metricsExposition: { "m 1\n" })))
        let port = try #require(RawHTTPClient.port(of: server.url))
        #expect(server.httpURL == "http://127.0.0.1:\(port)")
        #expect(server.operationsURL == server.httpURL)
        #expect(server.healthURL == "http://127.0.0.1:\(port)/healthz")
        #expect(server.adminURL == "ws://127.0.0.1:\(port)/admin")

        #expect(try await Self.get(server.healthURL).text == "ok\n")
        #expect(try await Self.get(server.readinessURL).text == "ready\n")
        #expect(try await Self.get(server.metricsURL).text == "m 1\n")
        #expect(try await Self.get(server.roomsURL, headers: ["Authorization": "Bearer \(Self.token)"]).status == 200)
        #expect(try await Self.get(server.dashboardURL).status == 200)  // the login form
        await server.shutdown()
    }

    @Test func withASecondListenerTheProbesAndMetricsAreThereAndTheAdminRoutesStay() async throws {
        let server = try await RoomServer.start(.init(operations: .init(
            adminToken: Self.token, metricsExposition: { "m 2\n" }, listener: (host: "127.0.0.1", port: 0))))
        let main = try #require(RawHTTPClient.port(of: server.url))
        let second = try #require(RawHTTPClient.port(of: server.operationsURL))
        #expect(second != main && second != 0)
        for url in [server.healthURL, server.readinessURL, server.metricsURL] {
            #expect(RawHTTPClient.port(of: url) == second, "\(url)")
        }
        #expect(try await Self.get(server.healthURL).text == "ok\n")
        #expect(try await Self.get(server.readinessURL).text == "ready\n")
        #expect(try await Self.get(server.metricsURL).text == "m 2\n")
        // The admin routes are never on the second listener
        #expect(RawHTTPClient.port(of: server.roomsURL) == main)
        #expect(try await Self.get(server.roomsURL, headers: ["Authorization": "Bearer \(Self.token)"]).status == 200)
        await server.shutdown()
    }

    @Test func whatIsOffHasNoURL() async throws {
        let server = try await RoomServer.start(.init())
        #expect(!server.healthURL.isEmpty)
        #expect(server.metricsURL.isEmpty)
        #expect(server.roomsURL.isEmpty && server.dashboardURL.isEmpty && server.adminURL.isEmpty)
        await server.shutdown()
        let unstarted = RoomServer(configuration: .init())
        #expect(unstarted.httpURL.isEmpty && unstarted.operationsURL.isEmpty && unstarted.healthURL.isEmpty)
    }

    @Test(.enabled(if: (OpenSSLProbe.isAvailable && CurlProbe.isAvailable) || isCI, "needs openssl and curl"))
    func overTLSTheURLsAreHTTPSAndAnswer() async throws {
        let fixture = try TLSFixture.make()
        let server = try await RoomServer.start(.init(
            tls: (fixture.certificateFile, fixture.privateKeyFile),
            operations: .init(adminToken: Self.token, metricsExposition: { "m 3\n" })))
        #expect(server.healthURL.hasPrefix("https://127.0.0.1:"), "\(server.healthURL)")
        #expect(server.adminURL.hasPrefix("wss://127.0.0.1:"), "\(server.adminURL)")
        for (url, body) in [(server.healthURL, "ok\n"), (server.readinessURL, "ready\n"), (server.metricsURL, "m 3\n")] {
            let fetch = try await CurlProbe.fetch(url, ["--cacert", fixture.caFile])
            #expect(fetch.status == 200 && fetch.output == body, "\(url): \(fetch)")
        }
        await server.shutdown()
    }
}
