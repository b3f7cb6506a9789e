import Foundation
import JSONRPC
import JSONRPCWebSocket
import RoomServer
import SignalingSupport
import TestSupport
import Testing

/// docs/operations.md#the-admin-token over real sockets: a token of at least 16 bytes, guesses limited per address,
/// and the token never in a URL (a login form that sets a short-lived session cookie, or `Authorization: Bearer`).
@Suite struct AdminLoginTests {
    static let token = "0123456789abcdef-admin"
    static let wrong = "0123456789abcdef-guess"

    static func start(clock: ManualClock = ManualClock()) async throws -> (RoomServer, Int) {
        let server = try await RoomServer.start(.init(operations: .init(adminToken: token), clock: clock))
        return (server, try #require(RawHTTPClient.port(of: server.url)))
    }

    static func bearer(_ token: String) -> [String: String] { ["Authorization": "Bearer " + token] }

    /// `POST /dashboard/login` with `token` as the form posts it.
    static func login(port: Int, _ token: String) async throws -> RawHTTPResponse {
        let field = token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token
        return try await RawHTTPClient.exchange(port: port, "POST", "/dashboard/login",
                                                headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                                body: "token=" + field)
    }

    /// The `name=value` of a `Set-Cookie` header.
    static func cookie(_ setCookie: String?) -> String? {
        setCookie?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test func anAdminTokenUnder16BytesIsRefusedAtStart() async throws {
        await #expect(throws: (any Error).self) {
            let server = try await RoomServer.start(.init(operations: .init(adminToken: "fifteen-bytes!!")))
            await server.shutdown()
        }
        let server = try await RoomServer.start(.init(operations: .init(adminToken: "sixteen-bytes!!!")))
        await server.shutdown()
    }

    @Test func guessesFromOneAddressAreLockedOutWithGrowingDelays() async throws {
        let clock = ManualClock()
        let (server, port) = try await Self.start(clock: clock)
        // Five wrong tokens are answered 401; the sixth locks the address out for 1 s
        for _ in 0..<6 {
            #expect(try await RawHTTPClient.get(port: port, "/rooms", headers: Self.bearer(Self.wrong)).status == 401)
        }
        // While locked out, even the right token gets 429 with Retry-After, on every admin door
        let locked = try await RawHTTPClient.get(port: port, "/rooms", headers: Self.bearer(Self.token))
        #expect(locked.status == 429, "\(locked)")
        #expect(locked.headers["retry-after"] == "1")
        #expect(try await Self.login(port: port, Self.token).status == 429)
        var upgrade = AdminWebSocketTests.upgradeHeaders
        upgrade["Authorization"] = "Bearer " + Self.token
        #expect(try await RawHTTPClient.get(port: port, "/admin", headers: upgrade).status == 429)
        // Another address is not locked out
        let other = HTTPRequest(path: "/rooms", headers: ["authorization": "Bearer " + Self.token], peerAddress: "10.0.0.7")
        #expect(server.operationsResponse(to: other).status == 200)

        // Once the lockout is over, the next wrong guess locks it out twice as long
        clock.advance(by: .seconds(1))
        #expect(try await RawHTTPClient.get(port: port, "/rooms", headers: Self.bearer(Self.wrong)).status == 401)
        #expect(try await RawHTTPClient.get(port: port, "/rooms", headers: Self.bearer(Self.token)).headers["retry-after"] == "2")
        // And a success after it forgets the failures
        clock.advance(by: .seconds(2))
        #expect(try await RawHTTPClient.get(port: port, "/rooms", headers: Self.bearer(Self.token)).status == 200)
        #expect(try await RawHTTPClient.get(port: port, "/rooms", headers: Self.bearer(Self.wrong)).status == 401)
        #expect(try await RawHTTPClient.get(port: port, "/rooms", headers: Self.bearer(Self.token)).status == 200)
        await server.shutdown()
    }

    @Test func theTokenIsNeverTakenFromAURL() async throws {
        let (server, port) = try await Self.start()
        // The dashboard without a session is a login form that posts the token; with ?token= too
        for path in ["/dashboard", "/dashboard?token=" + Self.token] {
            let page = try await RawHTTPClient.get(port: port, path)
            #expect(page.status == 200)
            #expect(page.text.contains(#"<form method="post" action="/dashboard/login">"#), "\(path): \(page.text)")
            #expect(!page.text.contains("subscribeRooms"), "\(path) served the dashboard")
            #expect(!page.text.contains("location.search"))
        }
        // /rooms and /admin refuse a token in the query
        #expect(try await RawHTTPClient.get(port: port, "/rooms?token=" + Self.token).status == 401)
        let admin = try await RawHTTPClient.get(port: port, "/admin?token=" + Self.token,
                                                headers: AdminWebSocketTests.upgradeHeaders)
        #expect(admin.status == 401)
        // / redirects to the dashboard without carrying a query along
        let root = try await RawHTTPClient.get(port: port, "/?token=" + Self.token)
        #expect(root.headers["location"] == "/dashboard")
        await server.shutdown()
    }

    @Test func aLoginSetsAShortLivedSessionCookieForTheDashboardRoomsAndAdmin() async throws {
        let clock = ManualClock()
        let (server, port) = try await Self.start(clock: clock)
        // A wrong token gets the form again, with 401
        let refused = try await Self.login(port: port, Self.wrong)
        #expect(refused.status == 401)
        #expect(refused.text.contains(#"action="/dashboard/login""#))
        #expect(refused.headers["set-cookie"] == nil)

        // The right one: 303 to the dashboard and a cookie that scripts cannot read, sent to this site only
        let accepted = try await Self.login(port: port, Self.token)
        #expect(accepted.status == 303, "\(accepted)")
        #expect(accepted.headers["location"] == "/dashboard")
        let setCookie = try #require(accepted.headers["set-cookie"])
        let attributes = Set(setCookie.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(attributes == ["Path=/", "Max-Age=900", "HttpOnly", "SameSite=Strict"], "\(setCookie)")
        #expect(!setCookie.contains(Self.token))
        let cookie = try #require(Self.cookie(setCookie))

        // It opens the dashboard, /rooms, and the /admin socket from the page's own origin only
        let page = try await RawHTTPClient.get(port: port, "/dashboard", headers: ["Cookie": cookie])
        #expect(page.text.contains("subscribeRooms"))
        #expect(page.headers["content-security-policy"]?.contains("connect-src 'self'") == true)
        #expect(try await RawHTTPClient.get(port: port, "/rooms", headers: ["Cookie": cookie]).status == 200)
        var upgrade = AdminWebSocketTests.upgradeHeaders
        upgrade["Cookie"] = cookie
        upgrade["Origin"] = "http://127.0.0.1"
        #expect(try await RawHTTPClient.get(port: port, "/admin", headers: upgrade).status == 101)
        upgrade["Origin"] = "http://127.0.0.1.evil.example"
        #expect(try await RawHTTPClient.get(port: port, "/admin", headers: upgrade).status == 403)
        upgrade["Origin"] = nil
        #expect(try await RawHTTPClient.get(port: port, "/admin", headers: upgrade).status == 403)
        // An unknown cookie is no session, and costs no guess
        #expect(try await RawHTTPClient.get(port: port, "/rooms", headers: ["Cookie": "room_server_admin=00"]).status == 401)

        // 15 minutes later the session is over
        clock.advance(by: .seconds(900))
        #expect(try await RawHTTPClient.get(port: port, "/rooms", headers: ["Cookie": cookie]).status == 401)
        #expect(!(try await RawHTTPClient.get(port: port, "/dashboard", headers: ["Cookie": cookie])).text.contains("subscribeRooms"))
        await server.shutdown()
    }

    @Test func programsUseTheAuthorizationHeaderForRoomsAndAdmin() async throws {
        let (server, port) = try await Self.start()
        #expect(try await RawHTTPClient.get(port: port, "/rooms", headers: Self.bearer(Self.token)).status == 200)
        var configuration = WebSocketClientConfiguration()
        configuration.headers = [("Authorization", "Bearer " + Self.token)]
        let admin = try await RoomPeer.dialing(AdminWebSocketTests.base(server) + "/admin", configuration: configuration)
        #expect(try await admin.result("getRooms")["rooms"] == [])
        await server.shutdown()
    }

    @Test func theCookieIsSecureWhenTheServerSpeaksTLS() async throws {
        let fixture = try TLSFixture.make()
        let server = try await RoomServer.start(.init(tls: (fixture.certificateFile, fixture.privateKeyFile),
                                                      operations: .init(adminToken: Self.token)))
        let login = HTTPRequest(method: "POST", path: "/dashboard/login",
                                headers: ["content-type": "application/x-www-form-urlencoded"],
                                body: Array("token=\(Self.token)".utf8))
        let response = server.operationsResponse(to: login)
        #expect(response.status == 303)
        #expect(response.headers["set-cookie"]?.hasSuffix("; Secure") == true, "\(response.headers)")
        await server.shutdown()
    }
}
