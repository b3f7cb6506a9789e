import Foundation
import JSONRPCWebSocket
import RoomServer
import TestSupport
import Testing

/// Issue 34, item 9: the application's own plain-HTTP routes on the server's port (docs/operations.md#application-routes),
/// over real sockets.
@Suite struct HTTPRouteTests {
    static func port(_ server: RoomServer) throws -> Int { try #require(RawHTTPClient.port(of: server.httpURL)) }

    static let version = HTTPRoute(.get, "/version") { request in
        HTTPResponse(status: 200, contentType: "text/plain; charset=utf-8",
                     body: "1.4.2 \(request.query["who"] ?? "")\n", headers: ["x-app": "yes"])
    }

    static let echo = HTTPRoute(.post, "/hooks/echo", maxBodySize: 16) { request in
        HTTPResponse(status: 201, headers: ["content-type": "application/octet-stream"], body: request.body)
    }

    @Test func aRegisteredRouteAnswersBesideTheServersOwn() async throws {
        let server = try await RoomServer.start(.init(operations: .init(routes: [Self.version, Self.echo])))
        let port = try Self.port(server)

        let version = try await RawHTTPClient.get(port: port, "/version?who=alice")
        #expect(version.status == 200)
        #expect(version.text == "1.4.2 alice\n")
        #expect(version.headers["x-app"] == "yes")
        let head = try await RawHTTPClient.exchange(port: port, "HEAD", "/version")
        #expect(head.status == 200 && head.body.isEmpty)
        let echo = try await RawHTTPClient.exchange(port: port, "POST", "/hooks/echo",
                                                    headers: ["Content-Length": "5"], body: "hello")
        #expect(echo.status == 201 && echo.text == "hello", "\(echo)")

        // Another method on a route's path: 405 naming the route's; a body over the route's bound: 413
        let post = try await RawHTTPClient.exchange(port: port, "POST", "/version", body: "x")
        #expect(post.status == 405 && post.headers["allow"] == "GET, HEAD", "\(post)")
        let large = try await RawHTTPClient.exchange(port: port, "POST", "/hooks/echo",
                                                     headers: ["Content-Length": "17"], body: String(repeating: "x", count: 17))
        #expect(large.status == 413, "\(large)")

        // The server's own routes and the 404 of an unknown path are unchanged
        #expect(try await RawHTTPClient.get(port: port, "/healthz").text == "ok\n")
        #expect(try await RawHTTPClient.get(port: port, "/nothing-here").status == 404)
        #expect(try await RawHTTPClient.get(port: port, "/room").status == 426)
        await server.shutdown()
    }

    @Test func anEmptyPostIsAnsweredOnARouteAndOnTheDashboardLogout() async throws {
        // Given a POST route and the admin dashboard
        let server = try await RoomServer.start(.init(operations: .init(adminToken: AdminLoginTests.token,
                                                                        routes: [Self.echo])))
        let port = try Self.port(server)
        // When a POST comes with `Content-Length: 0`, then it is answered with its handler's answer (a silent socket
        // fails after 3 s)
        for (path, status) in [("/hooks/echo", 201), (RoomServer.dashboardLogoutPath, 303)] {
            let empty = try await RawHTTPClient.exchange(port: port, "POST", path, headers: ["Content-Length": "0"],
                                                         timeout: .seconds(3))
            #expect(empty.status == status && empty.body.isEmpty, "\(path): \(empty)")
            // And without any length (nor Transfer-Encoding), 411: lws would read what follows as its body
            let unframed = try await RawHTTPClient.exchange(port: port, "POST", path, timeout: .seconds(3))
            #expect(unframed.status == 411 && unframed.headers["connection"] == "close", "\(path): \(unframed)")
        }
        await server.shutdown()
    }

    @Test func aRouteOnTheServersOwnPathOrAMalformedOneIsRefusedAtStart() async throws {
        let ok = HTTPRoute(.get, "/ok") { _ in HTTPResponse(status: 204) }
        for (route, words) in [
            (HTTPRoute(.get, "/healthz") { _ in HTTPResponse(status: 200) }, "/healthz is the server's own path"),
            (HTTPRoute(.post, "/dashboard/login") { _ in HTTPResponse(status: 200) }, "server's own path"),
            (HTTPRoute(.get, "/room") { _ in HTTPResponse(status: 200) }, "server's own path"),
            (HTTPRoute(.get, "version") { _ in HTTPResponse(status: 200) }, "starts with /"),
            (HTTPRoute(.get, "/a/../b") { _ in HTTPResponse(status: 200) }, "starts with /"),
            (ok, "the same method and path"),
        ] {
            do {
                let server = try await RoomServer.start(.init(operations: .init(routes: [ok, route])))
                Issue.record("\(route.method) \(route.path) was accepted")
                await server.shutdown()
            } catch let refused as OperationsConfiguration.RouteRefused {
                #expect(refused.path == route.path)
                #expect(refused.description.contains(words), "\(refused)")
            }
        }
    }

    @Test func aSlowHandlerGetsItsDeadlineAnswerAndHoldsUpNobody() async throws {
        // Given a route whose handler waits until the test ends, and a 300 ms route timeout
        let gate = Gate()
        let slow = HTTPRoute(.get, "/slow") { _ in
            await gate.wait()
            return HTTPResponse(status: 200)
        }
        let server = try await RoomServer.start(.init(operations: .init(routes: [slow],
                                                                        routeTimeout: .milliseconds(300))))
        let port = try Self.port(server)
        try await withDeadline(.seconds(10), "the deadline answer") {
            async let answer = RawHTTPClient.get(port: port, "/slow")
            // Meanwhile the probes answer
            #expect(try await RawHTTPClient.get(port: port, "/healthz").status == 200)
            let response = try await answer
            #expect(response.status == 503, "\(response)")
            #expect(response.headers["retry-after"] == "1")
        }
        gate.open()
        await server.shutdown()
    }

    @Test func aThrowingHandlerIs500AndRoutesStayOffTheSecondListener() async throws {
        struct Broken: Error {}
        let broken = HTTPRoute(.get, "/broken") { _ in throw Broken() }
        let server = try await RoomServer.start(.init(operations: .init(
            listener: (host: "127.0.0.1", port: 0), routes: [broken, Self.version])))
        #expect(try await RawHTTPClient.get(port: try Self.port(server), "/broken").status == 500)
        let second = try #require(RawHTTPClient.port(of: server.operationsURL))
        #expect(try await RawHTTPClient.get(port: second, "/version").status == 404)
        await server.shutdown()
    }
}
