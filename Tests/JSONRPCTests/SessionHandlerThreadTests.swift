import JSONRPC
import JSONRPCWebSocket
import SignalingSupport
import TestSupport
import Testing

/// `whenSessionEnds` and `whenSessionResumes` handlers are application code: they never run on the event loop's
/// service thread (docs/architecture.md#handler-placement), and one session's run in order.
@Suite struct SessionHandlerThreadTests {
    private struct Call: Sendable, Equatable {
        var event: String
        var session: String
        var onServiceThread: Bool
    }

    @Test func endAndResumeHandlersRunOffTheServiceThreadInOrder() async throws {
        // Given a server (window 5 s, manual clock) whose session handlers note where they run
        let clock = ManualClock()
        let server = JSONRPCServer(configuration: .init(reconnectionWindow: .seconds(5), clock: clock))
        let executor = WebSocketEventLoop.shared.executor
        let calls = LockedValue<[Call]>([])
        server.whenSessionEnds { session in
            calls.withLock { $0.append(Call(event: "ended", session: session.id, onServiceThread: executor.isCurrent)) }
        }
        server.whenSessionResumes { session in
            calls.withLock { $0.append(Call(event: "resumed", session: session.id, onServiceThread: executor.isCurrent)) }
        }
        @Sendable func called(_ event: String, _ session: String) -> Bool {
            calls.withLock { $0 }.contains { $0.event == event && $0.session == session }
        }
        let connect = #"{"jsonrpc":"2.0","method":"connect","id":0}"#
        try await withListener(server) { listener in
            // When a session's connection drops and its window runs out
            let dropped = try await RawPeer.connected(to: listener)
            let expiring = try #require(try await dropped.exchange(connect)["result"]?["sessionId"]?.stringValue)
            await dropped.connection.close(code: 1000, reason: "gone")
            try await waitUntil("the window's timer") { clock.pendingTimers == 1 }
            clock.advance(by: .seconds(5))

            // And another session is resumed by a second connection (whose own temporary session ends), which
            // then closes it
            let first = try await RawPeer.connected(to: listener)
            let sid = try #require(try await first.exchange(connect)["result"]?["sessionId"]?.stringValue)
            let second = try await RawPeer.connected(to: listener)
            let temporary = try #require(try await second.exchange(connect)["result"]?["sessionId"]?.stringValue)
            let resume = #"{"jsonrpc":"2.0","method":"connect","id":1,"params":{"sessionId":"\#(sid)"}}"#
            #expect(try await second.exchange(resume)["result"]?["value"] == "reconnection successful")
            #expect(try await second.exchange(#"{"jsonrpc":"2.0","method":"closeSession","id":2}"#)["result"] != nil)

            // Then every handler ran, none on the service thread, the resume before the end of the same session
            try await waitUntil("the handlers to run") {
                called("ended", expiring) && called("ended", temporary) && called("ended", sid)
            }
            #expect(calls.withLock { $0 }.filter(\.onServiceThread).isEmpty)
            #expect(calls.withLock { $0 }.filter { $0.session == sid }.map(\.event) == ["resumed", "ended"])
        }
    }
}
