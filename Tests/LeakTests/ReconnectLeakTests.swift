import JSONRPC
import JSONRPCWebSocket
import SignalingSupport
import TestSupport
import Testing

/// Leak checks after many reconnect cycles through TestSupport's FaultProxy: descriptors before and
/// after, streams finished, continuations resumed. Run alone by `make leaks` (the descriptor count is the
/// process's), never by `make test`.
@Suite(.serialized)
struct ReconnectLeakTests {
    static let backoff = JSONRPCClient.Backoff(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(100),
                                               budget: .seconds(10 * deadlineScale), reconnectionWindow: .seconds(5))

    @Test func twentyCutsLeaveNoDescriptorsStreamsOrWaitersBehind() async throws {
        // Given an echo server behind a proxy, warmed up (the event loop opens its own descriptors once)
        let server = JSONRPCServer()
        server.register("echo") { params, _ in params }
        let listener = try await server.listen(on: .init())
        let proxy = try FaultProxy(targetPort: listener.port)
        let warmup = JSONRPCClient(url: proxy.url(path: "/"), configuration: .init(reconnect: .off, heartbeat: .off))
        _ = try await warmup.call("echo", params: [0])
        await warmup.close()
        try await waitUntil("the warm-up connection to close") { proxy.openConnections == 0 }
        let baseline = openFileDescriptorCount(), baselineSockets = openSocketCount()

        // When a client goes through 20 cuts, each resumed, then has 100 calls stuck behind a paused proxy and closes
        let ended = LockedValue(false)
        let resumes = LockedValue(0)
        do {
            let client = JSONRPCClient(url: proxy.url(path: "/"), configuration: .init(
                requestTimeout: .seconds(30), reconnect: .automatic(Self.backoff), heartbeat: .every(.milliseconds(200))))
            let states = client.connectionStates
            Task {
                do { for try await state in states where state == .resumed { resumes.withLock { $0 += 1 } } } catch {}
                ended.withLock { $0 = true }
            }
            for cycle in 1...20 {
                #expect(try await client.call("echo", params: [.int(cycle)]) == ["value": [.int(cycle)], "sessionId": .string(client.sessionId ?? "")])
                proxy.cutAll()
                try await waitUntil("resume \(cycle)") { resumes.withLock { $0 } == cycle }
            }
            proxy.pause()
            let stuck = (0..<100).map { n in Task { try await client.call("echo", params: [.int(n)]) } }
            try await waitUntil("100 calls pending") { client.pendingRequestIDs.count == 100 }
            await client.close()
            // Then every stuck call's continuation was resumed, with connectionClosed
            for call in stuck {
                await #expect(throws: RPCError.self) { try await withDeadline(.seconds(10), "a completion") { try await call.value } }
            }
            proxy.resume()
        }
        // And the client's state stream finished once the client was released
        try await waitUntil("the state stream to finish") { ended.withLock { $0 } }
        proxy.stop()
        await listener.shutdown()
        // And the process holds no more sockets than before the cycles, and no more descriptors but the few the
        // runtime opens once on first use (libdispatch's timerfd and pipes; a leak per cycle would be 20 or more)
        do {
            try await waitUntil("sockets back to \(baselineSockets) and descriptors to about \(baseline)") {
                openSocketCount() <= baselineSockets && openFileDescriptorCount() <= baseline + 4
            }
        } catch {
            Issue.record("\(error): now \(openFileDescriptorDescriptions())")
        }
    }
}
