import Foundation
import SignalingSupport
import TestSupport
import Testing
@testable import WebSocketTransport

/// Request smuggling on a WebSocket server's plain HTTP side (docs/libwebsockets.md#plain-http): a request whose body
/// framing is ambiguous is answered 400 and its socket closed, so the bytes after its head are never read as a
/// second request, whatever a proxy in front made of them.
@Suite struct HTTPFramingTests {
    /// A request head with ambiguous framing, each followed on the same socket by `GET /smuggled`.
    static let ambiguous: [(String, String)] = [
        ("two Content-Length headers", "Content-Length: 0\r\nContent-Length: 38\r\n"),
        ("two equal Content-Length headers", "Content-Length: 38\r\nContent-Length: 38\r\n"),
        ("a Content-Length list", "Content-Length: 38, 38\r\n"),
        ("a signed Content-Length", "Content-Length: +38\r\n"),
        ("a Content-Length that is not a number", "Content-Length: 0x25\r\n"),
        ("Transfer-Encoding", "Transfer-Encoding: chunked\r\n"),
        ("Transfer-Encoding with a space before the colon", "Transfer-Encoding : chunked\r\n"),
        ("Transfer-Encoding with a tab before the colon", "Transfer-Encoding\t: chunked\r\n"),
        ("Transfer-Encoding with spaces and a tab before the colon", "TRANSFER-ENCODING \t  : chunked\r\n"),
        ("Content-Length with a space before the colon", "Content-Length : 38\r\n"),
        ("a body on a GET", "Content-Length: 38\r\n"),
    ]

    /// The request a lenient proxy would have taken for the first request's body: 38 bytes.
    static let smuggled = "GET /smuggled HTTP/1.1\r\nHost: evil\r\n\r\n"

    @Test(arguments: ambiguous.map(\.0))
    func anAmbiguousBodyIsRefusedWith400AndTheSmuggledRequestIsNeverServed(_ name: String) async throws {
        let headers = try #require(Self.ambiguous.first { $0.0 == name }?.1)
        #expect(Self.smuggled.utf8.count == 38)
        let paths = LockedValue<[String]>([])
        let server = try await HTTPTests.server { request in
            paths.withLock { $0.append(request.path) }
            return HTTPResponse(status: 200, contentType: "text/plain", body: "served \(request.path)")
        }
        let client = try RawHTTPClient(port: server.port)
        // Bounded reads: a server that keeps the socket open for the smuggled request ends the read after 5 s.
        try client.tcp.setReceiveTimeout(.seconds(5) * deadlineScale)
        try client.send("GET /first HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)\r\n\(Self.smuggled)")

        // One answer, 400 with `connection: close`, then the end of the socket: nothing after it.
        let bytes = try await withDeadline(.seconds(30), "the socket to close") { await client.tcp.readToEOF() }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 400 "), "\(name): \(text)")
        #expect(text.lowercased().contains("connection: close"), "\(name): \(text)")
        #expect(text.components(separatedBy: "HTTP/1.1 ").count == 2, "\(name): one response only: \(text)")
        #expect(paths.withLock { $0 }.isEmpty, "\(name): served \(paths.withLock { $0 })")
        await server.shutdown()
    }

    @Test(arguments: ["POST", "PUT", "PATCH"])
    func aBodyWithoutALengthIsRefusedWith411AndTheNextRequestIsNeverTakenForIt(_ method: String) async throws {
        // RFC 9112 §6.3: the request has no body and `GET /smuggled` is the next one; lws would read it as a body.
        let paths = LockedValue<[String]>([])
        let server = try await HTTPTests.server(maxBody: 64) { request in
            paths.withLock { $0.append(request.path) }
            return HTTPResponse(status: 200, contentType: "text/plain", body: "served \(request.path)")
        }
        let client = try RawHTTPClient(port: server.port)
        try client.tcp.setReceiveTimeout(.seconds(5) * deadlineScale)
        try client.send("\(method) /first HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n\(Self.smuggled)")

        let bytes = try await withDeadline(.seconds(30), "the socket to close") { await client.tcp.readToEOF() }
        let text = String(decoding: bytes, as: UTF8.self)
        let status = method == "POST" ? "411 " : "405 "
        #expect(text.hasPrefix("HTTP/1.1 " + status), "\(method): \(text)")
        #expect(text.lowercased().contains("connection: close"), "\(method): \(text)")
        #expect(text.components(separatedBy: "HTTP/1.1 ").count == 2, "\(method): one response only: \(text)")
        #expect(paths.withLock { $0 }.isEmpty, "\(method): served \(paths.withLock { $0 })")
        await server.shutdown()
    }

    @Test func aPostWithoutALengthIs411OnAnEndpointWithoutHandlerToo() async throws {
        let server = try await WebSocketServer.start(WebSocketServerConfiguration(), loop: .shared)
        let client = try RawHTTPClient(port: server.port)
        try client.tcp.setReceiveTimeout(.seconds(5) * deadlineScale)
        try client.send("POST /room HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n\(Self.smuggled)")
        let text = String(decoding: try await withDeadline(.seconds(30), "the socket to close") {
            await client.tcp.readToEOF()
        }, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 411 ") && text.components(separatedBy: "HTTP/1.1 ").count == 2, "\(text)")
        await server.shutdown()
    }

    @Test func aGetWithAZeroContentLengthIsServedAndKeptAlive() async throws {
        let server = try await HTTPTests.server { request in
            HTTPResponse(status: 200, contentType: "text/plain", body: "served \(request.path)")
        }
        let client = try RawHTTPClient(port: server.port)
        try client.request("GET", "/first", headers: [("Content-Length", "0")])
        #expect(try await HTTPTests.response(client)?.body == Array("served /first".utf8))
        try client.request("GET", "/second")
        #expect(try await HTTPTests.response(client)?.body == Array("served /second".utf8))
        await server.shutdown()
    }
}
