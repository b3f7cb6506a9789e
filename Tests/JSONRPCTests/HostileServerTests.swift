import Foundation
import JSONRPC
import JSONRPCWebSocket
import SignalingSupport
import TestSupport
import Testing

/// Hostile servers (docs/testing.md#fault-injection): a `JSONRPCClient` against a server that misbehaves on purpose
/// (``HostileWebSocketServer``, raw TCP, real sockets). Every call completes exactly once with a clear error, and
/// nothing hangs.
@Suite struct HostileServerTests {
    /// A client of `server` with short timeouts (stretched for sanitizer runs), no retries and no heartbeat.
    ///
    /// No heartbeat: a ``HostilePeer`` answers the client's `ping` only while it waits for a request
    /// (``HostilePeer/nextMessage()``), not while its script floods or waits for the close, and the heartbeat's
    /// interval is not stretched for sanitizer runs. A script that outlasts two intervals (50,000 notifications
    /// under ThreadSanitizer) would have its connection dropped as dead and its call failed with
    /// `connectionClosed`, which these tests are not about.
    func client(of server: HostileWebSocketServer, timeout: Duration = .milliseconds(400)) -> JSONRPCClient {
        var webSocket = WebSocketClientConfiguration()
        webSocket.handshakeTimeout = .seconds(2) * deadlineScale
        return JSONRPCClient(url: server.url("/"),
                             configuration: .init(requestTimeout: timeout * deadlineScale, retries: 0, heartbeat: .off),
                             webSocket: webSocket)
    }

    /// The outcome of `method`, within a deadline.
    func outcome(_ client: JSONRPCClient, _ method: String = "echo") async throws -> Result<JSONValue, RPCError> {
        try await withDeadline(.seconds(10), "the outcome of \(method)") {
            do { return .success(try await client.call(method)) } catch let error as RPCError { return .failure(error) }
        }
    }

    /// Answers every request with `{"value": <method>}`: the marker that proves the client still works.
    static func answer(_ peer: HostilePeer, _ message: HostilePeer.Message) throws {
        try peer.sendText(#"{"jsonrpc":"2.0","id":\#(message.id ?? 0),"result":{"value":"\#(message.method ?? "")"}}"#)
    }

    @Test func unansweredCallTimesOutOnce() async throws {
        // Given a server that reads and never answers
        let server = try HostileWebSocketServer { peer in _ = peer.waitForClose() }
        // Then the call fails with a timeout naming the method
        let result = try await outcome(client(of: server), "silence")
        #expect(result == .failure(.timeout(method: "silence", attempts: 1)))
    }

    @Test func duplicateResponsesCompleteEachCallOnceAndTheClientGoesOn() async throws {
        // Given a server that answers every request twice
        let server = try HostileWebSocketServer { peer in
            while true {
                let message = try peer.nextMessage()
                try Self.answer(peer, message)
                try Self.answer(peer, message)
            }
        }
        let client = client(of: server)
        // When two calls are made through the completion face
        let completions = LockedValue<[String]>([])
        for method in ["first", "second"] {
            client.call(method) { result in completions.withLock { $0.append((try? result.get())?["value"]?.stringValue ?? "error") } }
            try await waitUntil("\(method) completed") { completions.withLock { $0 }.contains(method) }
        }
        // Then each completed once, and a marker call after them still gets its own answer
        #expect(try await outcome(client, "marker") == .success(["value": "marker"]))
        #expect(completions.withLock { $0 } == ["first", "second"])
    }

    @Test(arguments: [
        #"{"jsonrpc":"2.0","id":424242,"result":{"value":"for nobody"}}"#,  // unknown id
        "this is not JSON",
        #"{"jsonrpc":"2.0","id":1,"result":"#,  // truncated
        String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
    ])
    func strayMessagesAreDroppedAndTheCallTimesOut(stray: String) async throws {
        // Given a server that answers the first request with a stray message only, and later ones properly
        let server = try HostileWebSocketServer { peer in
            let first = try peer.nextMessage()
            try peer.sendText(stray.replacingOccurrences(of: #""id":1,"#, with: #""id":\#(first.id ?? 0),"#))
            while true { try Self.answer(peer, try peer.nextMessage()) }
        }
        let client = client(of: server)
        // Then the first call times out, and the next one works
        #expect(try await outcome(client, "strayed") == .failure(.timeout(method: "strayed", attempts: 1)))
        #expect(try await outcome(client, "marker") == .success(["value": "marker"]))
    }

    @Test func resultsNested100000DeepTimeOutWithoutCrashing() async throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let server = try HostileWebSocketServer { peer in
            let message = try peer.nextMessage()
            try peer.sendText(#"{"jsonrpc":"2.0","id":\#(message.id ?? 0),"result":\#(deep)}"#)
            while true { try Self.answer(peer, try peer.nextMessage()) }
        }
        let client = client(of: server)
        #expect(try await outcome(client, "deep") == .failure(.timeout(method: "deep", attempts: 1)))
        #expect(try await outcome(client, "marker") == .success(["value": "marker"]))
    }

    @Test func jsonrpc10AnswerFailsTheCallAtOnceAsInvalid() async throws {
        let server = try HostileWebSocketServer { peer in
            let message = try peer.nextMessage()
            try peer.sendText(#"{"jsonrpc":"1.0","id":\#(message.id ?? 0),"result":{}}"#)
            while true { try Self.answer(peer, try peer.nextMessage()) }
        }
        let client = client(of: server, timeout: .seconds(30))
        let result = try await outcome(client, "old")
        guard case .failure(.invalidResponse(let detail)) = result else {
            Issue.record("expected invalidResponse, got \(result)")
            return
        }
        #expect(detail.contains("jsonrpc"))
        #expect(try await outcome(client, "marker") == .success(["value": "marker"]))
    }

    /// What the server does instead of answering, and the close code the client must end with.
    static let closingCases: [(String, UInt16)] = [
        ("20 MB frame", 1009), ("invalid UTF-8", 1007), ("abrupt close", 1006),
    ]

    @Test(arguments: closingCases)
    func hostileFramesEndTheConnectionAndFailThePendingCall(what: String, code: UInt16) async throws {
        // Given a server that answers the request with `what`
        let server = try HostileWebSocketServer { peer in
            _ = try peer.nextMessage()
            switch what {
            case "20 MB frame":
                try peer.write(HostilePeer.header(.text, length: 20 << 20))
                try peer.write([UInt8](repeating: UInt8(ascii: " "), count: 2 << 20))
            case "invalid UTF-8":
                try peer.sendFrame(.text, Array(#"{"jsonrpc":"2.0","id":1,"result":""#.utf8) + [0xC3, 0x28, 0xFF] + Array("\"}".utf8))
            default:
                peer.dropConnection()
                return
            }
            _ = peer.waitForClose()
        }
        // Then the call fails with connectionClosed carrying the code
        let result = try await outcome(client(of: server, timeout: .seconds(30)), "doomed")
        guard case .failure(.connectionClosed(let end?)) = result else {
            Issue.record("expected connectionClosed, got \(result)")
            return
        }
        #expect(end.code == code, "\(end)")
    }

    @Test func binaryFramesAreReadAsTextAndInvalidBytesAreRefused() async throws {
        // Given a server that answers in binary frames: first garbage, then the real answer
        let server = try HostileWebSocketServer { peer in
            let message = try peer.nextMessage()
            try peer.sendFrame(.binary, [0xFF, 0xFE, 0x00, 0x01])
            try peer.sendFrame(.binary, Array(#"{"jsonrpc":"2.0","id":\#(message.id ?? 0),"result":"bin"}"#.utf8))
            _ = peer.waitForClose()
        }
        // Then the garbage is dropped and the answer completes the call
        #expect(try await outcome(client(of: server), "binary") == .success("bin"))
    }

    @Test func listenerThatNeverHandshakesFailsTheCallWithinTheHandshakeTimeout() async throws {
        let silent = try SilentTCPListener()
        var webSocket = WebSocketClientConfiguration()
        webSocket.handshakeTimeout = .milliseconds(300)
        let client = JSONRPCClient(url: "ws://127.0.0.1:\(silent.port)/", configuration: .init(retries: 0),
                                   webSocket: webSocket)
        let result = try await outcome(client, "unreachable")
        guard case .failure(.connectionClosed(let end?)) = result else {
            Issue.record("expected connectionClosed, got \(result)")
            return
        }
        #expect(end.reason.contains("handshake"), "\(end)")
    }

    @Test func floodOf50000NotificationsIsDeliveredInOrderOrEndsTheSlowSubscriber() async throws {
        let server = try HostileWebSocketServer { peer in
            let message = try peer.nextMessage()
            var batch: [UInt8] = []
            for i in 0..<50_000 {
                let text = Array(#"{"jsonrpc":"2.0","method":"flood","params":{"n":\#(i)}}"#.utf8)
                batch += HostilePeer.header(.text, length: UInt64(text.count)) + text
                if batch.count > 256 << 10 { try peer.write(batch); batch.removeAll(keepingCapacity: true) }
            }
            try peer.write(batch)
            try Self.answer(peer, message)
            _ = peer.waitForClose()
        }
        let client = client(of: server, timeout: .seconds(30))
        let reader = client.notifications, idle = client.notifications
        let counted = Task {
            var expected = 0
            do {
                for try await note in reader {
                    #expect(note.params?["n"]?.intValue == expected)
                    expected += 1
                    if expected == 50_000 { break }
                }
            } catch {}
            return expected
        }
        // Then the call completes after the flood, the reading subscriber saw the flood in order (all of it, or a
        // prefix ended by overflow), and the subscriber that never read was ended instead of growing
        #expect(try await outcome(client, "afterFlood") == .success(["value": "afterFlood"]))
        // Awaiting a task's value ignores cancellation: the reader is cancelled when the deadline passes, so that a
        // flood that never comes fails the test instead of hanging it.
        let seen = try await withDeadline(.seconds(30), "the reader to finish") {
            await withTaskCancellationHandler { await counted.value } onCancel: { counted.cancel() }
        }
        #expect(seen > 0)
        let idleCount = LockedValue(0)
        await #expect(throws: BroadcastOverflow.self) {
            try await withDeadline(.seconds(10), "the idle subscriber to be ended") {
                for try await _ in idle { idleCount.withLock { $0 += 1 } }
            }
        }
        #expect(idleCount.withLock { $0 } <= client.configuration.notificationBufferLimit)
    }

    @Test func serverRequestsGetAResponseWithTheSameId() async throws {
        // Given a server that sends two requests of its own before answering the client's call
        let replies = LockedValue<[String]>([])
        let server = try HostileWebSocketServer { peer in
            let message = try peer.nextMessage()
            try peer.sendText(#"{"jsonrpc":"2.0","id":"s-1","method":"nobodyHandlesThis"}"#)
            try peer.sendText(#"{"jsonrpc":"2.0","id":77,"method":"whoAreYou","params":{}}"#)
            for _ in 0..<2 { replies.withLock { $0.append((try? peer.nextMessage().text) ?? "") } }
            try Self.answer(peer, message)
            _ = peer.waitForClose()
        }
        let client = client(of: server, timeout: .seconds(30))
        client.handle("whoAreYou") { _ in "a client" }
        // Then the unknown method gets -32601 and the handled one its result, each under its own id
        #expect(try await outcome(client, "call") == .success(["value": "call"]))
        let parsed = try replies.withLock { $0 }.map { try JSONValue(parsing: $0) }
        let unknown = try #require(parsed.first { $0["id"] == "s-1" })
        #expect(unknown["error"]?["code"] == -32601)
        let handled = try #require(parsed.first { $0["id"] == 77 })
        #expect(handled["result"] == "a client")
    }
}
