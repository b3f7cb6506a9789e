import JSONRPC
import JSONRPCWebSocket
import SignalingSupport
import TestSupport
import Testing

/// A busy or hung handler never holds up anyone else: a bounded number of handlers per connection (past which
/// the connection stops reading), a handler deadline, and a dropped socket that unbinds its session at once.
@Suite struct HandlerLimitTests {
    private func request(_ method: String, id: Int, params: String = "[]") -> String {
        #"{"jsonrpc":"2.0","method":"\#(method)","id":\#(id),"params":\#(params)}"#
    }

    /// Counts handlers running at once and the most there ever were.
    final class Concurrency: Sendable {
        private let state = LockedValue((now: 0, most: 0, started: 0))
        func enter() { state.withLock { $0.now += 1; $0.started += 1; $0.most = max($0.most, $0.now) } }
        func leave() { state.withLock { $0.now -= 1 } }
        var most: Int { state.withLock { $0.most } }
        var started: Int { state.withLock { $0.started } }
    }

    @Test func pastTheLimitTheConnectionStopsReadingAndNothingIsLost() async throws {
        // Given a server that runs at most 2 handlers per connection, whose `hang` handler parks on a gate and
        // keeps the connection it was called on
        let server = JSONRPCServer(configuration: .init(conventions: .plain, maxInFlightPerConnection: 2))
        let gate = Gate(), running = Concurrency()
        let served = LockedValue<WebSocketConnection?>(nil)
        server.register("hang") { _, context in
            served.withLock { $0 = $0 ?? (context.session.connection as? WebSocketMessageConnection)?.webSocket }
            running.enter()
            await gate.wait()
            running.leave()
            return "done"
        }
        try await withListener(server) { listener in
            let peer = try await RawPeer.connected(to: listener)

            // When the client sends 2 requests, then 100 more of 64 KiB each (6.4 MB, past the server's
            // inbound watermark)
            let big = "[\"" + String(repeating: "x", count: 64 << 10) + "\"]"
            for id in 0..<102 { try await peer.send(request("hang", id: id, params: id < 2 ? "[]" : big)) }

            // Then 2 handlers run, and the server stops reading the socket instead of queueing more work
            try await waitUntil("2 handlers to run") { running.started == 2 }
            let socket = try #require(served.withLock { $0 })
            try await waitUntil("the server to pause reading") { socket.inboundFlow.isReadingPaused }
            #expect(running.started == 2)

            // And once the handlers finish, every request is answered, never more than 2 at once
            gate.open()
            var ids = Set<Int>()
            for _ in 0..<102 { ids.insert(try #require(try await peer.receive()["id"]?.intValue)) }
            #expect(ids == Set(0..<102))
            #expect(running.most == 2)
        }
    }

    @Test func aHandlerPastItsDeadlineIsCancelledAndItsRequestGetsMinus32001() async throws {
        // Given a server whose handlers may run 5 s, on a manual clock, and a handler that waits until cancelled
        let clock = ManualClock()
        let server = JSONRPCServer(configuration: .init(clock: clock, handlerTimeout: .seconds(5)))
        let cancelled = Counter()
        server.register("hang") { _, _ in
            let mine = Gate()
            await withTaskCancellationHandler { await mine.wait() } onCancel: {
                cancelled.increment()
                mine.open()
            }
            return "finished anyway"
        }
        let peer = RawPeer.connected(to: server)
        try await peer.send(request("hang", id: 1))
        try await waitUntil("the deadline's timer") { clock.pendingTimers == 1 }

        // When its deadline passes
        clock.advance(by: .seconds(5))

        // Then the request is answered with -32001 naming the method, and the handler was cancelled
        let reply = try await peer.receive()
        #expect(reply["error"]?["code"] == .int(RPCErrorObject.handlerTimedOutCode))
        #expect(reply["error"]?["message"] == "handler timed out")
        #expect(reply["error"]?["data"]?["method"] == "hang")
        #expect(reply["error"]?["data"]?["timeoutMs"] == 5000)
        try await waitUntil("the handler to be cancelled") { cancelled.count == 1 }

        // And its retry gets the same answer, without running again
        #expect(try await peer.exchange(request("hang", id: 1))["error"]?["code"] == .int(RPCErrorObject.handlerTimedOutCode))
        #expect(cancelled.count == 1)
    }

    @Test func aHandlerThatIgnoresCancellationFreesItsSlotAtTheDeadline() async throws {
        // Given one handler per connection, a 5 s deadline, and a handler that ignores cancellation
        let clock = ManualClock()
        let server = JSONRPCServer(configuration: .init(conventions: .plain, clock: clock, maxInFlightPerConnection: 1,
                                                         handlerTimeout: .seconds(5)))
        let gate = Gate()
        server.register("stubborn") { _, _ in
            await gate.wait()
            return "late"
        }
        server.register("echo") { params, _ in params }
        let peer = RawPeer.connected(to: server)

        // When it runs, another request waits for its slot, and the deadline passes
        try await peer.send(request("stubborn", id: 1))
        try await peer.send(request("echo", id: 2, params: "[2]"))
        try await waitUntil("the deadline's timer") { clock.pendingTimers == 1 }
        clock.advance(by: .seconds(5))

        // Then the stuck request is answered with the timeout, and the next one runs
        #expect(try await peer.receive()["error"]?["code"] == .int(RPCErrorObject.handlerTimedOutCode))
        #expect(try await peer.receive() == ["jsonrpc": "2.0", "id": 2, "result": [2]])

        // And the stubborn handler's late result is never sent
        gate.open()
        #expect(try await peer.exchange(request("echo", id: 3, params: "[3]"))["id"] == 3)
    }

    @Test func aDroppedSocketUnbindsItsSessionAtOnceEvenWhileAHandlerHangs() async throws {
        // Given a session on a manual clock (window 5 s) whose handler hangs
        let clock = ManualClock()
        let server = JSONRPCServer(configuration: .init(reconnectionWindow: .seconds(5), clock: clock, handlerTimeout: nil))
        let gate = Gate(), parked = Counter()
        server.register("hang") { _, _ in
            parked.increment()
            await gate.wait()
            return "late"
        }
        let ended = LockedValue<[String]>([])
        server.whenSessionEnds { session in ended.withLock { $0.append(session.id) } }
        let (near, far) = LocalMessageConnection.pair()
        Task { await server.serve(far) }
        let peer = RawPeer(connection: near)
        let sid = try #require(try await peer.exchange(request("connect", id: 0))["result"]?["sessionId"]?.stringValue)
        try await peer.send(request("hang", id: 1))
        try await waitUntil("the handler to park") { parked.count == 1 }

        // When the socket drops while the handler still hangs
        await near.close(code: 1006, reason: "dropped")

        // Then the session is unbound and its reconnection window runs out, and the session ends, although the
        // handler has not returned
        try await waitUntil("the session to be unbound") { server.session(id: sid)?.isConnected == false }
        try await waitUntil("the window's timer") { clock.pendingTimers == 1 }
        clock.advance(by: .seconds(5))
        #expect(server.session(id: sid) == nil)
        try await waitUntil("the end handler (it runs off the receive path)") { ended.withLock { $0 } == [sid] }
        gate.open()
    }
}
