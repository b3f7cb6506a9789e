import Foundation
import RoomClient
import TestSupport
import Testing

/// Issue 31, item 23: what room-server says on the wire and in its log reads as standard text: HTTP status lines with
/// their RFC 9110 reason phrases, and one form for a session in every log line.
@Suite("room-server words")
struct RoomServerWordsCLITests {
    @Test("every HTTP answer has its standard reason phrase")
    func httpReasonPhrasesAreStandard() async throws {
        let token = "words-token-0123456789"
        let server = try await RoomServerProcess.start(environment: ["ROOM_SERVER_ADMIN_TOKEN": token])
        let port = try #require(RawHTTPClient.port(of: server.url))
        for (method, target, body, statusLine) in [
            ("GET", "/healthz", "", "HTTP/1.1 200 OK"),
            ("GET", "/", "", "HTTP/1.1 302 Found"),
            ("GET", "/room", "", "HTTP/1.1 426 Upgrade Required"),
            ("GET", "/rooms", "", "HTTP/1.1 401 Unauthorized"),
            ("GET", "/nowhere", "", "HTTP/1.1 404 Not Found"),
            ("DELETE", "/healthz", "", "HTTP/1.1 405 Method Not Allowed"),
            ("POST", "/dashboard/login", "token=\(token)", "HTTP/1.1 303 See Other"),
        ] {
            let headers = method == "POST" ? ["Content-Type": "application/x-www-form-urlencoded"] : [:]
            let response = try await RawHTTPClient.exchange(port: port, method, target, headers: headers, body: body)
            #expect(response.statusLine == statusLine, "\(method) \(target)")
        }
        // An upgrade refused before the handshake (here /admin without the admin token) too
        let upgrade = ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
                       "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="]
        let refused = try await RawHTTPClient.exchange(port: port, "GET", "/admin", headers: upgrade, body: "")
        #expect(refused.statusLine.hasSuffix(" 401 Unauthorized"), "\(refused)")
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
    }

    @Test("an upgrade over the per-address cap is refused with 429 Too Many Requests, the limit in its body")
    func capRefusalHasItsPhrase() async throws {
        let server = try await RoomServerProcess.start(["--max-connections-per-ip", "1"])
        let port = try #require(RawHTTPClient.port(of: server.url))
        let first = try RawTCPClient(port: port)
        try first.sendUpgradeRequest(path: "/room")
        #expect(await first.readStatusCode() == 101)

        let second = try RawTCPClient(port: port)
        try second.sendUpgradeRequest(path: "/room")
        let answer = String(decoding: await second.readToEOF(), as: UTF8.self)

        let statusLine = answer.split(separator: "\r\n").first.map(String.init) ?? ""
        #expect(statusLine.hasSuffix(" 429 Too Many Requests"), "\(answer)")
        #expect(answer.contains("too many connections from 127.0.0.1 (limit 1)"), "\(answer)")
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
    }

    @Test("a session appears in the log in one form: session=<redacted id>")
    func oneFormForASessionInTheLog() async throws {
        let server = try await RoomServerProcess.start(["--log-level", "debug"])
        let (alice, _) = try await joined("alice", at: server.url)
        let (bob, _) = try await joined("bob", at: server.url)
        try await alice.leave()
        await alice.disconnect()
        await bob.disconnect()
        try await waitUntil("bob's connection ended") { server.child.stderrSoFar.contains("connection ended") }
        server.child.send(SIGTERM)
        #expect(try await server.child.exitStatus() == 0)
        let lines = await server.child.stderr.split(separator: "\n").filter { $0.contains("session=") }
        #expect(lines.count >= 3, "\(lines)")
        for line in lines {
            #expect(!line.contains("session=session"), "\(line)")
            #expect(line.contains(/session=[0-9a-zA-Z_-]{6}…/), "\(line)")
        }
    }
}
