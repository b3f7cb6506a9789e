import Foundation
import JSONRPC
import JSONRPCWebSocket
import RoomServer
import TestSupport
import Testing

/// docs/operations.md#endpoints over raw HTTP on the server's own port (and on the second listener): status codes,
/// the admin token, the JSON of `/rooms`, readiness while shutting down.
@Suite struct OperationsRoutesTests {
    static func port(_ server: RoomServer) throws -> Int { try #require(RawHTTPClient.port(of: server.url)) }

    @Test func withoutAnAdminTokenOnlyHealthAndReadinessAnswer() async throws {
        let server = try await RoomServer.start(.init())
        let port = try Self.port(server)

        let health = try await RawHTTPClient.get(port: port, "/healthz")
        #expect(health.status == 200)
        #expect(health.text == "ok\n")
        #expect(health.headers["content-type"] == "text/plain; charset=utf-8")
        let ready = try await RawHTTPClient.get(port: port, "/readyz")
        #expect(ready.status == 200)
        #expect(ready.text == "ready\n")
        // The admin routes and the metrics are off, whatever the token
        for path in ["/rooms", "/rooms?token=x", "/dashboard", "/dashboard?token=x", "/metrics", "/nothing-here"] {
            #expect(try await RawHTTPClient.get(port: port, path).status == 404, "\(path)")
        }
        // The WebSocket paths (/ among them) still say that they want an upgrade
        for path in ["/", "/room", "/tree", "/admin"] {
            let response = try await RawHTTPClient.get(port: port, path)
            #expect(response.status == 426, "\(path): \(response.status)")
        }
        // HEAD answers like GET without a body; other methods get 405
        let head = try await RawHTTPClient.exchange(port: port, "HEAD", "/healthz")
        #expect(head.status == 200 && head.body.isEmpty)
        let post = try await RawHTTPClient.exchange(port: port, "POST", "/healthz", headers: ["Content-Length": "0"])
        #expect(post.status == 405)
        #expect(post.headers["allow"] == "GET, HEAD")
        #expect(server.operationsResponse(to: HTTPRequest(method: "DELETE", path: "/healthz")).status == 405)
        await server.shutdown()
    }

    @Test func roomsAndTheDashboardNeedTheAdminToken() async throws {
        let token = "tok-123-abcdefghij"
        let server = try await RoomServer.start(.init(operations: .init(adminToken: token)))
        let port = try Self.port(server)

        // Without it, with another, or in the query (never taken from a URL), /rooms is 401 with a Bearer challenge
        for (path, headers) in [("/rooms", [:]), ("/rooms?token=tok-123-abcdefghi", [:]), ("/rooms?token=", [:]),
                                ("/rooms?token=\(token)", [:]),
                                ("/rooms", ["Authorization": "Bearer \(token)4"]), ("/rooms", ["Authorization": token]),
                                ("/rooms", ["Authorization": "Basic dG9rLTEyMw=="])] as [(String, [String: String])] {
            let refused = try await RawHTTPClient.get(port: port, path, headers: headers)
            #expect(refused.status == 401, "\(path) \(headers): \(refused.status)")
            #expect(refused.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
            #expect(!refused.text.contains("rooms\""))
        }
        // With it as a header, the snapshot as JSON
        for headers in [["Authorization": "Bearer \(token)"], ["Authorization": "bearer \(token)"]] {
            let rooms = try await RawHTTPClient.get(port: port, "/rooms", headers: headers)
            #expect(rooms.status == 200, "\(headers)")
            #expect(rooms.headers["content-type"] == "application/json")
            #expect(rooms.headers["cache-control"] == "no-store")
            let json = try JSONValue(parsing: rooms.text)
            #expect(json["rooms"] == [])
            #expect(json["totals"] == ["rooms": 0, "participants": 0, "streams": 0, "subscriptions": 0])
        }

        // / redirects to the dashboard, which is a login form until the token is posted (AdminLoginTests), then the
        // page, which never holds the token
        let root = try await RawHTTPClient.get(port: port, "/?token=\(token)")
        #expect(root.status == 302)
        #expect(root.headers["location"] == "/dashboard")
        let form = try await RawHTTPClient.get(port: port, "/dashboard")
        #expect(form.status == 200)
        #expect(form.headers["content-security-policy"]?.contains("form-action 'self'") == true)
        #expect(form.text.contains(#"<form method="post" action="/dashboard/login">"#))
        let login = try await RawHTTPClient.exchange(port: port, "POST", "/dashboard/login", body: "token=\(token)")
        let cookie = try #require(login.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
        let page = try await RawHTTPClient.get(port: port, "/dashboard", headers: ["Cookie": cookie])
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.headers["content-security-policy"]?.contains("connect-src 'self'") == true)
        #expect(page.headers["referrer-policy"] == "no-referrer")
        #expect(page.text.hasPrefix("<!doctype html>"))
        #expect(page.text.contains("subscribeRooms"))
        #expect(!page.text.contains(token))
        await server.shutdown()
    }

    @Test func roomsJSONShowsAScriptedRoomExactly() async throws {
        // Given alice publishing in "demo" and bob receiving her, over real sockets probed for their RTT every 50 ms
        let server = try await RoomServer.start(.init(media: TestMediaBackend(), operations: .init(
            adminToken: "t-0123456789abcdef", rttProbeInterval: .milliseconds(50))))
        let alice = try await RoomPeer.dialing(server.url), bob = try await RoomPeer.dialing(server.url)
        let aliceSession = try #require(
            try await alice.result("joinRoom", ["user": "alice", "room": "demo"])["sessionId"]?.stringValue)
        try await alice.result("publishVideo", ["sdpOffer": "offer", "doLoopback": false])
        try await bob.join("bob", "demo")
        try await bob.result("receiveVideoFrom", ["sender": "alice_webcam", "sdpOffer": "offer"])
        try await waitUntil("both connections' round trips to be measured") {
            server.operationsSnapshot().rooms.first?.participants.allSatisfy { $0.rttMilliseconds != nil } == true
        }

        // When /rooms is read
        let response = try await RawHTTPClient.get(port: try Self.port(server), "/rooms",
                                                   headers: ["Authorization": "Bearer t-0123456789abcdef"])
        #expect(response.status == 200)
        let json = try JSONValue(parsing: response.text)

        // Then it has the one room, both participants in join order, her stream and his subscription, and totals
        let rooms = try #require(json["rooms"]?.arrayValue)
        #expect(rooms.count == 1)
        #expect(rooms[0]["name"] == "demo")
        let participants = try #require(rooms[0]["participants"]?.arrayValue)
        #expect(participants.map { $0["name"] } == ["alice", "bob"])
        #expect(participants.map { $0["streams"] } == [["webcam"], []])
        #expect(participants.map { $0["subscriptions"] } == [[], ["alice"]])
        #expect(participants.map { $0["connected"] } == [true, true])
        #expect(participants.map { $0["outboxDepth"] } == [0, 0])
        #expect(participants.map { $0["node"] } == [.null, .null])
        #expect(participants.map { $0["remote"] } == [false, false])
        #expect(participants.allSatisfy { ($0["rttMilliseconds"]?.doubleValue ?? -1) >= 0 })
        // (This backend names no media server and reports no flow: each stream and subscription has an unknown one.)
        #expect(rooms[0]["mediaServer"] == .null)
        #expect(participants.map { $0["streamFlows"] } == [["webcam": ["audio": nil, "video": nil]], [:]])
        #expect(participants.map { $0["subscriptionFlows"] } == [[:], ["alice": ["audio": nil, "video": nil]]])
        #expect(json["totals"] == ["rooms": 1, "participants": 2, "streams": 1, "subscriptions": 1])
        #expect(json["node"] == .null)
        #expect(json["generatedAt"]?.stringValue?.hasSuffix("Z") == true)
        #expect(json["version"]?.intValue ?? 0 > 0)
        // And never a session id
        #expect(!response.text.contains(aliceSession))
        #expect(!response.text.contains("session"))
        await server.shutdown()
    }

    @Test func readyzIs503WhileShuttingDownAndHealthzStays200() async throws {
        // Given a server that drains for up to a minute before it closes
        let server = try await RoomServer.start(.init(operations: .init(drainPeriod: .seconds(60))))
        let port = try Self.port(server)
        #expect(try await RawHTTPClient.get(port: port, "/readyz").status == 200)
        #expect(server.notReadyReason == nil)

        // When the shutdown begins, /readyz says so at once, and the process is still healthy
        let shutdown = Task { await server.shutdown() }
        try await waitUntil("readiness to go", asyncCondition: {
            (try? await RawHTTPClient.get(port: port, "/readyz").status) == 503
        })
        let ready = try await RawHTTPClient.get(port: port, "/readyz")
        #expect(ready.text == "shutting down\n")
        #expect(server.notReadyReason == "shutting down")
        #expect(try await RawHTTPClient.get(port: port, "/healthz").status == 200)

        // And a second shutdown ends the drain at once: both return, and the port is closed
        try await withDeadline(.seconds(10), "both shutdowns") {
            await server.shutdown()
            await shutdown.value
        }
        // (The shared event loop may still accept on the port a moment; our routes are gone from it.)
        #expect((try? await RawHTTPClient.get(port: port, "/healthz"))?.status != 200)
    }

    @Test func metricsAreServedWhenAnExpositionIsConfigured() async throws {
        let server = try await RoomServer.start(.init(operations: .init(metricsExposition: { "test_metric 1\n" })))
        let metrics = try await RawHTTPClient.get(port: try Self.port(server), "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        #expect(metrics.text == "test_metric 1\n")
        await server.shutdown()
    }

    @Test func theSecondListenerServesProbesAndMetricsOnly() async throws {
        // Given a server with an admin token, metrics and a second listener on a free port
        let server = try await RoomServer.start(.init(operations: .init(
            adminToken: "tok-0123456789abcdef", metricsExposition: { "m 2\n" }, listener: (host: "127.0.0.1", port: 0))))
        #expect(server.operationsURL.hasPrefix("http://127.0.0.1:"))
        let port = try #require(RawHTTPClient.port(of: server.operationsURL))
        #expect(port != (try Self.port(server)))

        // Then it answers the probes and the metrics ...
        #expect(try await RawHTTPClient.get(port: port, "/healthz").text == "ok\n")
        #expect(try await RawHTTPClient.get(port: port, "/readyz").text == "ready\n")
        #expect(try await RawHTTPClient.get(port: port, "/metrics").text == "m 2\n")
        // ... and nothing of the admin side, token or not, nor any WebSocket
        for path in ["/rooms", "/dashboard", "/", "/room", "/admin"] {
            #expect(try await RawHTTPClient.get(port: port, path).status == 404, "\(path)")
        }
        let upgrade = try await RawHTTPClient.get(port: port, "/room", headers: AdminWebSocketTests.upgradeHeaders)
        #expect(upgrade.status == 404)
        let rooms = try await RawHTTPClient.get(port: port, "/rooms", headers: ["Authorization": "Bearer tok-0123456789abcdef"])
        #expect(rooms.status == 404)
        let login = try await RawHTTPClient.exchange(port: port, "POST", "/dashboard/login",
                                                     body: "token=tok-0123456789abcdef")
        #expect(login.status == 405)

        // When the server shuts down, so does the second listener
        await server.shutdown()
        #expect((try? await RawHTTPClient.get(port: port, "/healthz"))?.status != 200)
    }

    @Test func aSecondListenerThatCannotBindFailsTheStart() async throws {
        // (A socket of another kind: servers of one event loop share a port they both ask for.)
        let busy = try SilentTCPListener()
        await #expect(throws: TransportError.self) {
            _ = try await RoomServer.start(.init(operations: .init(listener: (host: "127.0.0.1", port: busy.port))))
        }
    }
}
