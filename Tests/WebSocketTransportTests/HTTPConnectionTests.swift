import SignalingSupport
import TestSupport
import Testing
@testable import WebSocketTransport

/// Plain HTTP connections on a WebSocket server's port: keep-alive, half-close, HTTP/1.0, pipelining, and upgrades
/// beside plain requests (docs/libwebsockets.md#plain-http).
@Suite struct HTTPConnectionTests {
    @Test func keepAliveServesTwoRequestsOnOneConnection() async throws {
        let peers = LockedValue<[String]>([])
        let server = try await HTTPTests.server { request in
            peers.withLock { $0.append(request.path) }
            return HTTPResponse(status: 200, contentType: "text/plain", body: "path \(request.path)")
        }
        let client = try RawHTTPClient(port: server.port)
        try client.request("GET", "/first")
        let first = try #require(try await HTTPTests.response(client))
        try client.request("GET", "/second")
        let second = try #require(try await HTTPTests.response(client))

        #expect(first.body == Array("path /first".utf8))
        #expect(second.body == Array("path /second".utf8))
        #expect(peers.withLock { $0 } == ["/first", "/second"])
        await server.shutdown()
    }

    @Test func aClientThatHalfClosesStillGetsItsAnswer() async throws {
        let release = Gate()
        let server = try await HTTPTests.server { _ in
            await release.wait()
            return HTTPResponse(status: 200, contentType: "text/plain", body: "still here")
        }
        let client = try RawHTTPClient(port: server.port)
        try client.request("GET", "/readyz")
        client.finishSending()
        release.open()
        let response = try #require(try await HTTPTests.response(client))
        #expect(response.body == Array("still here".utf8))
        #expect(try await withDeadline(.seconds(10), "EOF") { try await client.tcp.waitForEOF() })
        await server.shutdown()
    }

    @Test func anHTTP10RequestIsAnsweredAndTheConnectionCloses() async throws {
        let server = try await HTTPTests.server { _ in HTTPResponse(status: 200, contentType: "text/plain", body: "old") }
        let client = try RawHTTPClient(port: server.port)
        try client.send("GET /healthz HTTP/1.0\r\n\r\n")
        let response = try #require(try await HTTPTests.response(client))
        #expect(response.status == 200)
        #expect(response.body == Array("old".utf8))
        #expect(try await withDeadline(.seconds(10), "EOF") { try await client.tcp.waitForEOF() })
        await server.shutdown()
    }

    @Test func pipelinedRequestsAreAnsweredInOrderAfterASlowOne() async throws {
        let entered = Gate(), release = Gate()
        let server = try await HTTPTests.server { request in
            if request.path == "/slow" {
                entered.open()
                await release.wait()
            }
            return HTTPResponse(status: 200, contentType: "text/plain", body: "answer \(request.path)")
        }
        let client = try RawHTTPClient(port: server.port)
        // Both requests in one write: the second waits in the socket while the first one's handler runs.
        try client.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /next HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        try await withDeadline(.seconds(10), "handler entered") { await entered.wait() }
        release.open()
        #expect(try await HTTPTests.response(client)?.body == Array("answer /slow".utf8))
        #expect(try await HTTPTests.response(client)?.body == Array("answer /next".utf8))
        await server.shutdown()
    }

    @Test func aKeptAliveSocketCanStillUpgrade() async throws {
        var configuration = WebSocketServerConfiguration()
        configuration.httpHandler = { _ in HTTPResponse(status: 204) }
        let server = try await WebSocketServer.start(configuration)
        let client = try RawHTTPClient(port: server.port)
        try client.request("GET", "/readyz")
        #expect(try await HTTPTests.response(client)?.status == 204)

        try client.tcp.sendUpgradeRequest(path: "/after-http")
        let accepted = try await firstConnection(server)
        #expect(accepted.request?.path == "/after-http")
        await server.shutdown()
    }

    @Test func withoutAHandlerPlainHTTPStillGets426() async throws {
        let server = try await WebSocketServer.start()
        let client = try RawHTTPClient(port: server.port)
        try client.request("GET", "/metrics")
        let response = try #require(try await HTTPTests.response(client))
        #expect(response.status == 426)
        // With its standard reason phrase (lws's own answer had none: "426 "), and the socket kept for a next request
        #expect(response.statusLine.hasSuffix(" 426 Upgrade Required"), "\(response.statusLine)")
        try client.request("GET", "/again")
        #expect(try await HTTPTests.response(client)?.status == 426)
        await server.shutdown()
    }

    @Test func anUpgradeStillWorksWhenAHandlerIsSet() async throws {
        var configuration = WebSocketServerConfiguration()
        configuration.httpHandler = { _ in HTTPResponse(status: 200, contentType: "text/plain", body: "healthy") }
        let echo = try await EchoServer.start(configuration)
        let ws = try await WebSocketConnection.connect(to: echo.url)
        try await ws.send(text: "hello")
        #expect(try await nextMessage(ws) == .text("hello"))

        let client = try RawHTTPClient(port: echo.server.port)
        try client.request("GET", "/healthz")
        #expect(try await HTTPTests.response(client)?.body == Array("healthy".utf8))
        await ws.close()
        await echo.stop()
    }
}
