import JSONRPC
import SignalingSupport
import TestSupport
import Testing

/// The lifecycle (docs/architecture.md#lifecycle) on a ManualClock and in-memory connections: reconnect, resume, 40007,
/// close codes, the budget, stop(), and the bounded queue. Runs in milliseconds.
///
/// Every wait has a deadline (a call's outcome, `close()`), so that a request that never completes fails its test
/// with what was awaited instead of hanging the run; time moves only once the timer it is meant to fire is armed.
struct ReconnectLifecycleTests {
    let clock = ManualClock()
    let transport = ScriptedTransport()

    func client(backoff: JSONRPCClient.Backoff = .init(seed: 7), resendsOnResume: Bool = true) -> JSONRPCClient {
        JSONRPCClient(transport: transport, configuration: .init(
            requestTimeout: .seconds(600), retries: 0, reconnect: .automatic(backoff), heartbeat: .off, clock: clock,
            resendsOnResume: resendsOnResume))
    }

    /// Connects `client` with a first call that teaches it the session id `S1`; returns the server end.
    func connectWithSession(_ client: JSONRPCClient) async throws -> ScriptedPeer {
        let hello = Task { try await client.call("hello") }
        defer { hello.cancel() }
        let peer = try await transport.nextPeer()
        try await peer.reply(to: try await peer.receive(), ["value": "hi", "sessionId": "S1"])
        _ = try await withDeadline(.seconds(10), "the answer to 'hello'") { try await hello.value }
        #expect(client.sessionId == "S1")
        return peer
    }

    /// A client with a session and one `work` call pending, whose connection then dropped (1006) and whose backoff
    /// passed: its next connection is being dialled. Returns the client, its state log, the call and the call's
    /// request as it was first sent.
    func pendingCallAfterADrop() async throws
        -> (client: JSONRPCClient, log: StateLog, call: Task<JSONValue, any Error>, sent: JSONValue)
    {
        let client = client()
        let log = StateLog(client)
        let first = try await connectWithSession(client)
        let call = Task { try await client.call("work", params: [1]) }
        let sent = try await first.receive()
        await first.close(code: 1006, reason: "network")
        try await log.wait(for: "reconnecting") { $0 == .reconnecting(attempt: 1) }
        try await advance(clock, by: .milliseconds(300), onceDue: "the backoff")
        return (client, log, call, sent)
    }

    /// Expects `peer` to receive the request `sent` again, exactly as it was (same id), answers it, and expects the
    /// answer to complete `call`.
    func expectResentAndAnswered(_ sent: JSONValue, on peer: ScriptedPeer,
                                 completing call: Task<JSONValue, any Error>) async throws {
        let resent = try await peer.receive()
        #expect(resent == sent)
        try await peer.reply(to: resent, ["value": "done", "sessionId": "S1"])
        #expect(try await withDeadline(.seconds(10), "the call's answer") { try await call.value }
                == ["value": "done", "sessionId": "S1"])
    }

    /// The `connect` result of this package's servers: they dedupe ids and replay missed notifications.
    static let resumedByOurServer: JSONValue = [
        "value": "reconnection successful", "sessionId": "S1", "capabilities": ["dedupe", "replay"],
    ]

    @Test func aDropResumesTheSessionAndResendsPendingRequestsWithTheirIds() async throws {
        // Given a client with a session and one request pending, when the connection drops and the backoff passes
        let (client, log, call, sent) = try await pendingCallAfterADrop()

        // Then the client resumes with connect{sessionId} on the new connection
        let second = try await transport.nextPeer()
        let connect = try await second.receive()
        #expect(connect["method"] == "connect" && connect["params"] == ["sessionId": "S1"])
        try await second.reply(to: connect, Self.resumedByOurServer)
        // And re-sends the pending request exactly as it was, with its id; its answer completes the call
        try await expectResentAndAnswered(sent, on: second, completing: call)
        try await log.wait(for: "resumed") { $0 == .resumed }
        #expect(log.all == [.disconnected(nil), .connecting, .connected, .reconnecting(attempt: 1), .resumed])
        #expect(client.isConnected && client.sessionId == "S1")
    }

    @Test func aDropWhoseHandlingIsHeldBackDoesNotFailTheResumeOfTheNextConnection() async throws {
        try await BlockingGate.withTurn {
            // Given a client with a session and a request pending, whose state observer holds the thread that handles
            // a drop: the observers run inside the drop's transition, before the ended connection's requests fail
            let client = client()
            let gate = BlockingGate()
            let held = LockedValue(false)
            client.observeConnectionStates { state in
                guard state == .reconnecting(attempt: 1), held.withLock({ h in defer { h = true }; return !h }) else { return }
                gate.block()
            }
            defer { gate.open() }
            let log = StateLog(client)
            let first = try await connectWithSession(client)
            let call = Task { try await client.call("work", params: [1]) }
            let sent = try await first.receive()

            // When the connection drops and the reconnect loop sends its `connect` while the drop's handling is held
            await first.close(code: 1006, reason: "network")
            try await advance(clock, by: .milliseconds(300), onceDue: "the backoff")
            let second = try await transport.nextPeer()
            let connect = try await second.receive()
            // (the observer may not have run yet: the thread handling the drop can lag behind the loop it started)
            try await waitUntil("the drop's handling to be held") { gate.isBlocking }
            gate.open()
            // (answered once the drop's callbacks ran: an answer queued behind the observer would be handled before
            // the drop's handling went on)
            try await log.wait(for: "reconnecting") { $0 == .reconnecting(attempt: 1) }
            try await second.reply(to: connect, Self.resumedByOurServer)

            // Then that `connect` was not failed with the old connection's end: the session resumes, the request is
            // re-sent, and its answer completes the call (it failed every control request, this one included; its
            // answer was dropped and the call waited forever)
            try await expectResentAndAnswered(sent, on: second, completing: call)
            try await log.wait(for: "resumed") { $0 == .resumed }
        }
    }

    @Test func aResumeWhoseConnectionDropsRightAfterItsAnswerReSendsThePendingRequestOnTheNext() async throws {
        // Given a client with a session and one request pending, reconnecting after a drop
        let (_, _, call, sent) = try await pendingCallAfterADrop()

        // When the server answers the resume and the connection drops at once (before or after the client made it
        // its connection, and before or after the re-send went out)
        let second = try await transport.nextPeer()
        try await second.reply(to: try await second.receive(), Self.resumedByOurServer)
        await second.close(code: 1006, reason: "network")
        try await advance(clock, by: .seconds(1), onceDue: "the next backoff")

        // Then the next connection resumes the session and re-sends the request, whose answer completes the call
        let third = try await transport.nextPeer()
        let connect = try await third.receive()
        #expect(connect["method"] == "connect")
        try await third.reply(to: connect, Self.resumedByOurServer)
        try await expectResentAndAnswered(sent, on: third, completing: call)
    }

    @Test func theClientNeverReusesAnIdWithinASessionAcrossDropsAndResumes() async throws {
        // Given a client with a session (its first request used one id)
        let client = client()
        let log = StateLog(client)
        var peer = try await connectWithSession(client)
        var ids: [JSONValue] = []

        for cycle in 1...3 {
            // When it makes two calls, the connection drops, and the session resumes
            for n in 0..<2 {
                let call = Task { try await client.call("work", params: [.int(n)]) }
                defer { call.cancel() }
                let request = try await peer.receive()
                ids.append(request["id"] ?? .null)
                try await peer.reply(to: request, ["sessionId": "S1"])
                _ = try await withDeadline(.seconds(10), "the answer to call \(n) of cycle \(cycle)") { try await call.value }
            }
            await peer.close(code: 1006, reason: "network")
            try await waitUntil("reconnecting \(cycle)") { log.all.count(where: { $0 == .reconnecting(attempt: 1) }) == cycle }
            // (not "once a timer is armed": the deadline timer of the first call, at 600 s, stays armed)
            try await advance(clock, by: .milliseconds(300), onceDue: "the backoff")
            peer = try await transport.nextPeer()
            let connect = try await peer.receive()
            ids.append(connect["id"] ?? .null)
            try await peer.reply(to: connect, ["value": "reconnection successful", "sessionId": "S1"])
            try await waitUntil("resumed \(cycle)") { log.all.count(where: { $0 == .resumed }) == cycle }
        }

        // Then every request it sent in the session, resumes' connects included, had an id of its own
        #expect(ids.count == 3 * 3)
        #expect(Set(ids).count == ids.count, "\(ids)")
    }

    @Test func a40007RefusalFailsPendingRequestsAndContinuesAsAFreshSession() async throws {
        // Given a client with a session and one request pending
        let client = client()
        let log = StateLog(client)
        let first = try await connectWithSession(client)
        let call = Task { try await client.call("work") }
        _ = try await first.receive()

        // When it reconnects and the server no longer knows the session
        await first.close(code: 1001, reason: "restart")
        try await advance(clock, by: .milliseconds(300), onceDue: "the backoff")
        let second = try await transport.nextPeer()
        let connect = try await second.receive()
        try await second.send(["jsonrpc": "2.0", "id": connect["id"]!,
                               "error": ["code": 40007, "message": "reconnection error"]])

        // Then the pending request fails with connectionClosed, the session id is dropped, and calls go on
        await #expect(throws: RPCError.connectionClosed(ConnectionEnd(code: 1001, reason: "restart"))) {
            try await withDeadline(.seconds(10), "the call to fail") { try await call.value }
        }
        try await log.wait(for: "connected again") { $0 == .connected && log.all.contains(.reconnecting(attempt: 1)) }
        #expect(client.sessionId == nil)
        let fresh = Task { try await client.call("fresh") }
        defer { fresh.cancel() }
        let request = try await second.receive()
        #expect(request["method"] == "fresh")
        try await second.reply(to: request, ["sessionId": "S2"])
        _ = try await withDeadline(.seconds(10), "the answer to 'fresh'") { try await fresh.value }
        #expect(client.sessionId == "S2")
    }

    @Test(arguments: [1000, 1008, 4401, 4403, 4409] as [UInt16])
    func closeCodesThatForbidReconnectingEndTheClient(code: UInt16) async throws {
        // Given a connected client with a request pending
        let client = client()
        let first = try await connectWithSession(client)
        let call = Task { try await client.call("work") }
        _ = try await first.receive()

        // When the server closes with a code that forbids reconnecting
        let end = ConnectionEnd(code: code, reason: "no")
        await first.close(code: code, reason: "no")

        // Then the request fails at once (a refusal with its typed error), the client is disconnected, and it never
        // dials again
        await #expect(throws: RPCError.closed(end)) {
            try await withDeadline(.seconds(10), "the call to fail") { try await call.value }
        }
        #expect(client.connectionState == .disconnected(end))
        clock.advance(by: .seconds(120))
        #expect(transport.attempts == 1)
    }

    @Test func reconnectingGivesUpWhenTheBudgetIsSpentAndFailsWhatWaited() async throws {
        // Given a client whose server stays unreachable after a drop, with a 2 s budget
        let client = client(backoff: .init(budget: .seconds(2), reconnectionWindow: .seconds(1), seed: 3))
        let log = StateLog(client)
        let first = try await connectWithSession(client)
        transport.refusing = true
        await first.close(code: 1006, reason: "gone")
        // And a call made while reconnecting
        try await log.wait(for: "reconnecting") { $0 == .reconnecting(attempt: 1) }
        let waiting = Task { try await client.call("queued") }

        // When time passes attempt after attempt: only while the client waits out its backoff (the attempt it
        // announced is not dialled yet). Moved while a dial is in flight, time would cut the dial short with the
        // budget, and the client would give up after fewer attempts (seen under TSan's slowness).
        try await waitUntil("the client to give up") { [clock, transport] in
            let announced = log.all.reduce(0) { if case .reconnecting(let attempt) = $1 { max($0, attempt) } else { $0 } }
            // (the first dial was the connect before the drop)
            if transport.attempts <= announced { clock.advance(by: .milliseconds(100)) }
            return log.all.contains { if case .disconnected(_?) = $0 { true } else { false } }
        }

        // Then the client tried several times, then ended; the queued call failed with connectionClosed
        #expect(log.all.contains(.reconnecting(attempt: 3)))
        guard case .disconnected(let end?) = client.connectionState else { Issue.record("not disconnected"); return }
        #expect(end.reason.contains("gave up reconnecting"))
        await #expect(throws: RPCError.connectionClosed(end)) {
            try await withDeadline(.seconds(10), "the queued call to fail") { try await waiting.value }
        }
        #expect(transport.attempts >= 3)
    }

    @Test func closeWhileReconnectingStopsAtOnce() async throws {
        // Given a client reconnecting to an unreachable server, with a call waiting
        let client = client()
        let log = StateLog(client)
        let first = try await connectWithSession(client)
        transport.refusing = true
        await first.close(code: 1006, reason: "gone")
        try await log.wait(for: "reconnecting") { $0 == .reconnecting(attempt: 1) }
        let waiting = Task { try await client.call("queued") }
        // (the client's one deadline timer, armed since `hello`, and the backoff's sleep)
        try await waitUntil("the call to wait") { !client.pendingRequestIDs.isEmpty && clock.pendingTimers >= 2 }

        // When the user closes the client
        try await returnsWithin(.seconds(10), "close()") { await client.close() }

        // Then the waiting call fails at once, the state is disconnected, and no attempt follows
        let end = ConnectionEnd(code: 1000, reason: "")
        await #expect(throws: RPCError.connectionClosed(end)) {
            try await withDeadline(.seconds(10), "the queued call to fail") { try await waiting.value }
        }
        #expect(client.connectionState == .disconnected(end))
        let attempts = transport.attempts
        clock.advance(by: .seconds(120))
        #expect(transport.attempts == attempts)
    }

    @Test func sendsWaitInABoundedQueueWhileReconnecting() async throws {
        // Given a client reconnecting, whose queue takes 2 sends
        let client = client(backoff: .init(queueLimit: 2, seed: 5))
        let log = StateLog(client)
        let first = try await connectWithSession(client)
        await first.close(code: 1006, reason: "gone")
        try await log.wait(for: "reconnecting") { $0 == .reconnecting(attempt: 1) }

        // When three calls are made
        let failed = LockedValue<[RPCError]>([])
        let calls = (0..<3).map { n in
            Task {
                do { _ = try await client.call("queued", params: [.int(n)]) } catch let error as RPCError {
                    failed.withLock { $0.append(error) }
                }
            }
        }

        // Then one fails at once (the queue is full) and the two others go out once the session resumes
        try await waitUntil("one call to fail") { failed.withLock { $0 }.count == 1 }
        try await advance(clock, by: .milliseconds(300), onceDue: "the backoff")
        let second = try await transport.nextPeer()
        let connect = try await second.receive()
        try await second.reply(to: connect, ["value": "reconnection successful", "sessionId": "S1"])
        for _ in 0..<2 {
            let request = try await second.receive()
            #expect(request["method"] == "queued")
            try await second.reply(to: request, ["sessionId": "S1"])
        }
        try await withDeadline(.seconds(10), "the queued calls to end") { for call in calls { _ = try? await call.value } }
        #expect(failed.withLock { $0 }.count == 1)
        guard case .connectionClosed(let end?)? = (failed.withLock { $0 }).first else { Issue.record("\(failed.withLock { $0 })"); return }
        #expect(end.reason.contains("already waiting"))
    }
}

extension ReconnectLifecycleTests {
    @Test func aCallWaitingForTheReconnectionStillTimesOutAtItsDeadline() async throws {
        // Given a client reconnecting to an unreachable server
        let client = JSONRPCClient(transport: transport, configuration: .init(
            requestTimeout: .seconds(2), retries: 0, reconnect: .automatic(.init(seed: 11)), heartbeat: .off,
            clock: clock))
        let log = StateLog(client)
        let first = try await connectWithSession(client)
        transport.refusing = true
        await first.close(code: 1006, reason: "gone")
        try await log.wait(for: "reconnecting") { $0 == .reconnecting(attempt: 1) }

        // When a call waits in the queue longer than its timeout (docs/architecture.md#reconnect: deadlines keep
        // running)
        let waiting = Task { try await client.call("queued") }
        // (one timer serves every deadline of the client: the call is due when it is registered)
        try await waitUntil("the call to be registered") { !client.pendingRequestIDs.isEmpty }
        clock.advance(by: .seconds(2))

        // Then it times out, although the client is still reconnecting
        await #expect(throws: RPCError.timeout(method: "queued", attempts: 1)) {
            try await withDeadline(.seconds(10), "the queued call to time out") { try await waiting.value }
        }
        #expect(!client.connectionState.isConnected)
        try await returnsWithin(.seconds(10), "close()") { await client.close() }
    }
}

extension ReconnectLifecycleTests {
    @Test func aHandshakeThatHangsIsCutOffByTheBudget() async throws {
        // Given a client with a 2 s budget whose reconnect attempt never completes its handshake
        let client = client(backoff: .init(budget: .seconds(2), reconnectionWindow: .seconds(1), seed: 13))
        let log = StateLog(client)
        let first = try await connectWithSession(client)
        transport.hanging = true
        await first.close(code: 1006, reason: "gone")
        try await log.wait(for: "reconnecting") { $0 == .reconnecting(attempt: 1) }

        // When time passes
        try await waitUntil("the client to give up") { [clock] in
            clock.advance(by: .milliseconds(100))
            return log.all.contains { if case .disconnected(_?) = $0 { true } else { false } }
        }

        // Then the hanging attempt was abandoned when the budget ran out, and the client ended
        guard case .disconnected(let end?) = client.connectionState else { Issue.record("not disconnected"); return }
        #expect(end.reason.contains("outlasted the reconnect budget"))
        #expect(transport.attempts == 2)
    }
}

extension ReconnectLifecycleTests {
    @Test func aBudgetSpentDuringAHangStillSaysWhyTheOtherAttemptsFailed() async throws {
        // Given a client with a 2 s budget whose first reconnect attempt is refused, and whose next ones hang
        let client = client(backoff: .init(budget: .seconds(2), reconnectionWindow: .seconds(1), seed: 3))
        let log = StateLog(client)
        let first = try await connectWithSession(client)
        transport.refusing = true
        await first.close(code: 1006, reason: "gone")
        try await waitUntil("the second attempt") { [clock] in
            clock.advance(by: .milliseconds(10))
            return log.all.contains(.reconnecting(attempt: 2))
        }
        transport.refusing = false
        transport.hanging = true

        // When time passes until the budget is spent
        try await waitUntil("the client to give up") { [clock] in
            clock.advance(by: .milliseconds(100))
            return log.all.contains { if case .disconnected(_?) = $0 { true } else { false } }
        }

        // Then the end says that an attempt could not connect, and why (issue 31: not only "outlasted the budget")
        guard case .disconnected(let end?) = client.connectionState else { Issue.record("not disconnected"); return }
        #expect(end.reason.contains("1 attempt(s) could not connect"), "\(end.reason)")
        #expect(end.reason.contains("connection refused") && !end.reason.contains("outlasted"), "\(end.reason)")
    }
}
