import Foundation
import JSONRPC
import JSONRPCWebSocket
import SignalingSupport
import TestSupport
import Testing

/// Where handlers run. The server reads and answers each connection on the event loop's service thread; only
/// handlers registered for it (`registerInline`, `.connectionExecutor`) run there. Everything else, the default,
/// runs on the global executor, so a handler that blocks its thread holds up no other connection.
@Suite struct HandlerPlacementTests {
    @Test func aBlockingHandlerDoesNotStallOtherConnections() async throws {
        // Given a server whose `block` handler (default placement) blocks its thread until released (at most 10 s)
        let server = JSONRPCServer(configuration: .init(conventions: .plain))
        let release = DispatchSemaphore(value: 0)
        let blocking = Counter(), unblocked = LockedValue(false)
        server.register("block") { _, _ in
            blocking.increment()
            let released = release.wait(timeout: .now() + 10) == .success
            unblocked.withLock { $0 = true }
            return .bool(released)
        }
        server.registerSpecificationExamples()
        try await withListener(server) { listener in
            let stuck = JSONRPCClient(url: listener.url)
            let other = JSONRPCClient(url: listener.url)
            try await other.connect()
            let blocked = Task { try await stuck.call("block") }
            try await waitUntil("the handler to block") { blocking.count == 1 }

            // When another connection makes 50 calls while that thread is blocked
            try await withDeadline(.seconds(5), "50 calls beside a blocked handler") {
                for index in 0..<50 {
                    let echoed = try await other.call("echo", params: [.int(index)])
                    #expect(echoed == [.int(index)])
                }
            }

            // Then they were all answered before the blocked handler was released, which then answers too
            #expect(!unblocked.withLock { $0 })
            release.signal()
            #expect(try await blocked.value == .bool(true))
            await stuck.close()
            await other.close()
        }
    }

    @Test func inlineAndConnectionExecutorHandlersRunOnTheServiceThreadAndOthersDoNot() async throws {
        // Given handlers of each kind that report whether they run on the loop's service thread
        let server = JSONRPCServer(configuration: .init(conventions: .plain))
        let executor = WebSocketEventLoop.shared.executor
        server.registerInline("inline") { _, _ in .bool(executor.isCurrent) }
        server.register("onLoop", placement: .connectionExecutor) { _, _ in
            let before = executor.isCurrent
            try await Task.sleep(for: .milliseconds(5))  // resumes on the loop again
            return [.bool(before), .bool(executor.isCurrent)]
        }
        server.register("default") { _, _ in .bool(executor.isCurrent) }
        try await withListener(server) { listener in
            let client = JSONRPCClient(url: listener.url)

            // When each is called over a WebSocket
            // Then the inline and connection-executor handlers ran there, the default one did not
            let inline = try await client.call("inline")
            let onLoop = try await client.call("onLoop")
            let elsewhere = try await client.call("default")
            #expect(inline == .bool(true))
            #expect(onLoop == [.bool(true), .bool(true)])
            #expect(elsewhere == .bool(false))
            await client.close()
        }
    }

    @Test func inlineHandlersAnswerInOrderWithTheirErrorsAndDuplicates() async throws {
        // Given the specification examples, which run inline
        let server = JSONRPCServer(configuration: .init(conventions: .plain))
        server.registerSpecificationExamples()
        try await withListener(server) { listener in
            let peer = try await RawPeer.connected(to: listener)

            // When a request, a bad one, a notification and a retry of the first arrive together
            try await peer.send(#"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"#)
            try await peer.send(#"{"jsonrpc":"2.0","method":"subtract","params":{"x":1},"id":2}"#)
            try await peer.send(#"{"jsonrpc":"2.0","method":"notify_hello","params":[7]}"#)
            try await peer.send(#"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"#)

            // Then each request is answered once, in order: the result, -32602, and the cached result again
            let answers = try await withDeadline(.seconds(5), "three answers") {
                [try await peer.receive(), try await peer.receive(), try await peer.receive()]
            }
            #expect(answers[0]["result"] == .int(19))
            #expect(answers[1]["error"]?["code"] == .int(-32602))
            #expect(answers[2] == answers[0])
        }
    }
}
