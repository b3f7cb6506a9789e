import SignalingSupport
import TestSupport
import Testing
@testable import WebSocketTransport

/// Plain HTTP on a WebSocket server's port (docs/libwebsockets.md#plain-http), spoken by hand over raw sockets.
@Suite struct HTTPTests {
    /// A server on `loop` whose handler is `handler`.
    static func server(
        loop: WebSocketEventLoop = .shared, timeout: Duration = .seconds(10), extraHeaders: [String] = [],
        maxBody: Int = 0, handshakeTimeout: Duration = .seconds(5),
        _ handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse
    ) async throws -> WebSocketServer {
        var configuration = WebSocketServerConfiguration()
        configuration.httpHandler = handler
        configuration.httpHandlerTimeout = timeout
        configuration.extraHeaderNames = extraHeaders
        configuration.maxHTTPBodySize = maxBody
        configuration.handshakeTimeout = handshakeTimeout
        return try await WebSocketServer.start(configuration, loop: loop)
    }

    /// The next response on `client`, within 10 s.
    static func response(_ client: RawHTTPClient, toHEAD: Bool = false) async throws -> RawHTTPResponse? {
        try await withDeadline(.seconds(10), "HTTP response") { await client.response(toHEAD: toHEAD) }
    }

    /// Late handler responses the server dropped so far.
    static func dropped(_ server: WebSocketServer) async throws -> Int {
        let core = server.core
        return try await core.loop.onServiceThread { _ in core.droppedHTTPResponses }
    }

    @Test func getWithQueryAndHeadersReachesTheHandlerWithTheRightFields() async throws {
        let seen = LockedValue<HTTPRequest?>(nil)
        let server = try await Self.server(extraHeaders: ["X-Trace-Id"]) { request in
            seen.withLock { $0 = request }
            return HTTPResponse(status: 200, contentType: "text/plain", body: "ok")
        }
        let client = try RawHTTPClient(port: server.port)
        try client.request("GET", "/metrics/a%20b?format=json&name=a%2Bb+c&x=1&x=2&flag", headers: [
            ("User-Agent", "probe/1.0"), ("Accept", "text/plain"), ("X-Trace-Id", "abc-123"), ("Cookie", "k=v"),
        ])
        let response = try #require(try await Self.response(client))
        #expect(response.status == 200)
        #expect(response.body == Array("ok".utf8))

        let request = try #require(seen.withLock { $0 })
        #expect(request.method == "GET")
        #expect(request.path == "/metrics/a b")
        #expect(request.query == ["format": "json", "name": "a+b c", "x": "2", "flag": ""])
        #expect(request.headers["host"] == "127.0.0.1")
        #expect(request.headers["user-agent"] == "probe/1.0")
        #expect(request.headers["accept"] == "text/plain")
        #expect(request.headers["cookie"] == "k=v")
        #expect(request.headers["x-trace-id"] == "abc-123")
        #expect(request.headers["authorization"] == nil)
        #expect(request.peerAddress == "127.0.0.1")
        await server.shutdown()
    }

    @Test func statusHeadersAndAMebibyteBodyArriveIntact() async throws {
        let body = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let server = try await Self.server { _ in
            HTTPResponse(status: 201, headers: [
                "Content-Type": "application/octet-stream", "cache-control": "no-store", "x-build": "42",
                "content-length": "7",  // ignored: the server counts the body itself
                "bad header": "dropped", "x-injected": "a\r\nset-cookie: evil=1",
            ], body: body)
        }
        let client = try RawHTTPClient(port: server.port)
        try client.request("GET", "/blob")
        let response = try #require(try await Self.response(client))
        #expect(response.status == 201)
        #expect(response.statusLine.hasPrefix("HTTP/1.1 201"))
        #expect(response.headers["content-type"] == "application/octet-stream")
        #expect(response.headers["cache-control"] == "no-store")
        #expect(response.headers["x-build"] == "42")
        #expect(response.headers["content-length"] == String(1 << 20))
        #expect(response.headers["x-injected"] == nil)
        #expect(response.headers["set-cookie"] == nil)
        #expect(response.body.count == body.count)
        #expect(response.body == body)
        await server.shutdown()
    }

    @Test func headGetsTheHeadersWithoutTheBody() async throws {
        let server = try await Self.server { request in
            HTTPResponse(status: 200, contentType: "text/html", body: "<h1>dashboard \(request.method)</h1>")
        }
        let client = try RawHTTPClient(port: server.port)
        try client.request("HEAD", "/dashboard")
        let head = try #require(try await Self.response(client, toHEAD: true))
        // On the same socket: had the HEAD response carried a body, this response would start inside it.
        try client.request("GET", "/dashboard")
        let get = try #require(try await Self.response(client))

        #expect(head.status == 200)
        #expect(head.headers["content-type"] == "text/html")
        #expect(head.headers["content-length"] == String("<h1>dashboard HEAD</h1>".utf8.count))
        #expect(head.body.isEmpty)
        #expect(get.status == 200)
        #expect(get.body == Array("<h1>dashboard GET</h1>".utf8))
        await server.shutdown()
    }

    @Test func aSlowHandlerDoesNotDelayAWebSocketEchoOnAnotherConnection() async throws {
        let entered = Gate(), release = Gate()
        var configuration = WebSocketServerConfiguration()
        configuration.httpHandler = { _ in
            entered.open()
            await release.wait()
            return HTTPResponse(status: 200, contentType: "text/plain", body: "slow")
        }
        let echo = try await EchoServer.start(configuration)
        let http = try RawHTTPClient(port: echo.server.port)
        try http.request("GET", "/slow")
        try await withDeadline(.seconds(10), "handler entered") { await entered.wait() }

        // The handler is holding its request: the WebSocket side of the same server goes on regardless.
        let ws = try await WebSocketConnection.connect(to: echo.url)
        try await ws.send(text: "ping")
        #expect(try await nextMessage(ws) == .text("ping"))

        release.open()
        let response = try #require(try await Self.response(http))
        #expect(response.body == Array("slow".utf8))
        await ws.close()
        await echo.stop()
    }

    @Test func aHandlerSlowerThanTheBoundGets503AndItsLateResponseIsDropped() async throws {
        let release = Gate()
        let server = try await Self.server(timeout: .milliseconds(200)) { request in
            if request.path == "/stuck" { await release.wait() }
            return HTTPResponse(status: 200, contentType: "text/plain", body: "fine")
        }
        let client = try RawHTTPClient(port: server.port)
        try client.request("GET", "/stuck")
        let response = try #require(try await Self.response(client))
        #expect(response.status == 503)
        #expect(response.headers["retry-after"] == "1")

        release.open()
        try await waitUntil("late response dropped", asyncCondition: { (try? await Self.dropped(server)) == 1 })
        // The connection stayed usable: the next request on it is answered by the handler.
        try client.request("GET", "/quick")
        let next = try #require(try await Self.response(client))
        #expect(next.status == 200)
        #expect(next.body == Array("fine".utf8))
        await server.shutdown()
    }

    @Test func aPeerClosingBeforeTheResponseLeavesNothingBehind() async throws {
        let loop = try WebSocketEventLoop()
        let entered = Gate(), release = Gate()
        let cancelled = LockedValue(false)
        let server = try await Self.server(loop: loop, timeout: .milliseconds(300)) { request in
            if request.path == "/wait" {
                entered.open()
                await release.wait()
                cancelled.withLock { $0 = Task.isCancelled }
            }
            return HTTPResponse(status: 200, contentType: "text/plain", body: "late")
        }
        let client = try RawHTTPClient(port: server.port)
        try client.request("GET", "/wait")
        try await withDeadline(.seconds(10), "handler entered") { await entered.wait() }

        // lws learns that the peer is gone when the answer is written (it cannot tell a close from a
        // half-close by reading): here the 503 at the handler's bound, after which the socket is released.
        client.shutdown()
        try await waitUntil("socket released", asyncCondition: { await loop.connectionCount() == 0 })
        release.open()
        try await waitUntil("late response dropped", asyncCondition: { (try? await Self.dropped(server)) == 1 })
        #expect(cancelled.withLock { $0 })

        // The server goes on serving.
        let again = try RawHTTPClient(port: server.port)
        try again.request("GET", "/again")
        #expect(try await Self.response(again)?.body == Array("late".utf8))
        await server.shutdown()
        await loop.shutdown()
    }

    @Test func otherMethodsGet405AndTheConnectionCloses() async throws {
        let calls = LockedValue(0)
        let server = try await Self.server { _ in
            calls.withLock { $0 += 1 }
            return HTTPResponse(status: 200)
        }
        let client = try RawHTTPClient(port: server.port)
        try client.send("POST /rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello")
        let response = try #require(try await Self.response(client))
        #expect(response.status == 405)
        #expect(response.headers["allow"] == "GET, HEAD")
        #expect(response.headers["connection"] == "close")
        #expect(try await withDeadline(.seconds(10), "EOF") { try await client.tcp.waitForEOF() })
        #expect(calls.withLock { $0 } == 0)
        await server.shutdown()
    }

    @Test func aStatusOutsideTheValidRangeBecomes500() async throws {
        let server = try await Self.server { _ in HTTPResponse(status: 42, body: Array("x".utf8)) }
        let client = try RawHTTPClient(port: server.port)
        try client.request("GET", "/odd")
        #expect(try await Self.response(client)?.status == 500)
        await server.shutdown()
    }
}
