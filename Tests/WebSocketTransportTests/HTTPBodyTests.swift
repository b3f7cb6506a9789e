import Foundation
import SignalingSupport
import TestSupport
import Testing
@testable import WebSocketTransport

/// `POST` bodies on a WebSocket server's plain HTTP side, when `maxHTTPBodySize` allows them
/// (docs/libwebsockets.md#plain-http): read whole before the handler runs, bounded in size and in time.
@Suite struct HTTPBodyTests {
    /// A server accepting bodies of up to 64 bytes, whose handler records each request and echoes its body.
    static func echoingServer(handshakeTimeout: Duration = .seconds(5))
        async throws -> (WebSocketServer, LockedValue<[HTTPRequest]>)
    {
        let seen = LockedValue<[HTTPRequest]>([])
        let server = try await HTTPTests.server(maxBody: 64, handshakeTimeout: handshakeTimeout) { request in
            seen.withLock { $0.append(request) }
            return HTTPResponse(status: 200, headers: ["content-type": "text/plain"],
                                body: Array("\(request.method) \(request.path) ".utf8) + request.body)
        }
        return (server, seen)
    }

    @Test func aPostBodyReachesTheHandlerAndTheSocketServesTheNextRequest() async throws {
        let (server, seen) = try await Self.echoingServer()
        let client = try RawHTTPClient(port: server.port)
        // The head, then the body in two writes, then a pipelined GET right behind it.
        try client.send("POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 12\r\n\r\ntoken")
        try client.send("=a+b%2F")
        try client.send("GET /after HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(try await HTTPTests.response(client)?.text == "POST /login token=a+b%2F")
        #expect(try await HTTPTests.response(client)?.text == "GET /after ")
        #expect(seen.withLock { $0 }.map(\.method) == ["POST", "GET"])
        #expect(seen.withLock { $0 }.first?.headers["host"] == "127.0.0.1")
        #expect(seen.withLock { $0 }.last?.body == [])
        await server.shutdown()
    }

    @Test func aPostWithContentLengthZeroHasAnEmptyBodyAndTheSocketServesTheNextRequest() async throws {
        let (server, seen) = try await Self.echoingServer()
        let client = try RawHTTPClient(port: server.port)
        // A silent socket ends the read after 3 s instead of hanging the test.
        try client.tcp.setReceiveTimeout(.seconds(3))
        try client.request("POST", "/logout", headers: [("Content-Length", "0")])
        #expect(try await HTTPTests.response(client)?.text == "POST /logout ")
        try client.request("GET", "/after")
        #expect(try await HTTPTests.response(client)?.text == "GET /after ")
        #expect(seen.withLock { $0 }.map(\.body) == [[], []])
        await server.shutdown()
    }

    @Test func aBodyLargerThanTheLimitGets413AndTheConnectionCloses() async throws {
        let (server, seen) = try await Self.echoingServer()
        let client = try RawHTTPClient(port: server.port)
        let body = String(repeating: "x", count: 65)
        try client.send("POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 65\r\n\r\n\(body)")
        let response = try #require(try await HTTPTests.response(client))
        #expect(response.status == 413)
        #expect(response.headers["connection"] == "close")
        #expect(try await withDeadline(.seconds(10), "EOF") { try await client.tcp.waitForEOF() })
        #expect(seen.withLock { $0 }.isEmpty)
        await server.shutdown()
    }

    @Test func aBodyThatDoesNotArriveInTimeDropsTheSocket() async throws {
        let (server, seen) = try await Self.echoingServer(handshakeTimeout: .milliseconds(200))
        let client = try RawHTTPClient(port: server.port)
        try client.send("POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\nslow")
        #expect(try await withDeadline(.seconds(10), "the socket dropped") { try await client.tcp.waitForEOF() })
        #expect(seen.withLock { $0 }.isEmpty)
        await server.shutdown()
    }

    @Test func otherMethodsStill405WithPostAllowed() async throws {
        let (server, seen) = try await Self.echoingServer()
        let client = try RawHTTPClient(port: server.port)
        try client.send("PUT /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\nhi")
        let response = try #require(try await HTTPTests.response(client))
        #expect(response.status == 405)
        #expect(response.headers["allow"] == "GET, HEAD, POST")
        #expect(seen.withLock { $0 }.isEmpty)
        await server.shutdown()
    }
}
