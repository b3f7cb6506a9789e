import SignalingSupport
import TestSupport
import Testing
import WebSocketTransport

/// `UpgradeRequest.bearerToken`: the Bearer scheme in any case with one or more spaces (RFC 9110 §11.1, RFC 6750
/// §2.1), else `?access_token=` (RFC 6750 §2.3, for browsers).
@Suite struct BearerTokenTests {
    @Test(arguments: [
        ("Bearer abc", "", "abc"), ("bearer abc", "", "abc"), ("BEARER   abc ", "", "abc"), ("Bearer\tabc", "", "abc"),
        ("Basic dXNlcg==", "access_token=q", "q"), ("Bearer", "access_token=q", "q"), ("Bearerabc", "", nil),
        ("Bearer   ", "", nil), (nil, "access_token=a%2Bb", "a+b"), (nil, "", nil),
    ] as [(String?, String, String?)])
    func theTokenIsReadFromTheHeaderElseTheQuery(header: String?, query: String, token: String?) {
        let request = UpgradeRequest(path: "/room", query: query, headers: header.map { ["authorization": $0] } ?? [:])
        #expect(request.bearerToken == token)
    }

    @Test func aServerSeesTheTokenOfAnUpgradeWhateverTheCaseAndSpacingOfItsScheme() async throws {
        // Given a server that records the token of each upgrade
        let seen = LockedValue<[String?]>([])
        var configuration = WebSocketServerConfiguration()
        configuration.upgradeFilter = { request in
            seen.withLock { $0.append(request.bearerToken) }
            return .accept
        }
        let server = try await WebSocketServer.start(configuration)

        // When a client sends `BEARER   abc`
        var client = WebSocketClientConfiguration()
        client.headers = [("Authorization", "BEARER   abc")]
        let connection = try await WebSocketConnection.connect(to: server.url + "/room", configuration: client)

        // Then the server reads `abc`
        #expect(seen.withLock { $0 } == ["abc"])
        await connection.close()
        await server.shutdown()
    }

    @Test func aRefusedUpgradeCarriesItsHTTPStatus() async throws {
        var configuration = WebSocketServerConfiguration()
        configuration.upgradeFilter = { _ in .reject(status: 401, reason: "unauthorized") }
        let server = try await WebSocketServer.start(configuration)
        let error = await #expect(throws: TransportError.self) {
            _ = try await WebSocketConnection.connect(to: server.url + "/room")
        }
        guard case .upgradeRefused(let status, _)? = error else {
            Issue.record("expected upgradeRefused, got \(String(describing: error))")
            return
        }
        #expect(status == 401)
        await server.shutdown()
    }
}
