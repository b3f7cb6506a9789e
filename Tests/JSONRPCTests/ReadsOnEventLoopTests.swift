import JSONRPC
import JSONRPCWebSocket
import SignalingSupport
import TestSupport
import Testing

/// A client that reads on the event loop (``JSONRPCClient/Configuration/readsOnEventLoop``) completes plain calls
/// there, but keeps wire order and never runs user code on the service thread.
@Suite struct ReadsOnEventLoopTests {
    private static let executor = WebSocketEventLoop.shared.executor

    /// A server whose `tell` sends the caller `n` notifications `note` (params: their index), then answers `n`.
    private func server() -> JSONRPCServer {
        let server = JSONRPCServer(configuration: .init(conventions: .plain))
        server.register("tell") { params, context in
            let count = params?[0]?.intValue ?? 0
            for index in 0..<count { try await context.session.notify("note", params: [.int(index)]) }
            return .int(count)
        }
        server.registerSpecificationExamples()
        return server
    }

    @Test func observersAndApplyRunOffTheLoopAndSeeEveryEarlierNotification() async throws {
        try await withListener(server()) { listener in
            // Given a client that reads on the event loop, with an observer that records where it ran
            let client = JSONRPCClient(url: listener.url, configuration: .init(readsOnEventLoop: true))
            let seen = LockedValue<[Int]>([]), onLoop = Counter()
            client.observeNotifications { note in
                if Self.executor.isCurrent { onLoop.increment() }
                seen.withLock { $0.append(note.params?[0]?.intValue ?? -1) }
            }

            // When calls answered after notifications are applied in wire order, from a caller on the loop too
            for round in 1...20 {
                let (applied, observed, applyOnLoop) = try await client.call("tell", params: [.int(round)]) { result in
                    (result.intValue ?? -1, seen.withLock { $0 }.count, Self.executor.isCurrent)
                }
                #expect(applied == round)
                #expect(observed == (1...round).reduce(0, +), "apply saw every earlier notification")
                #expect(!applyOnLoop)
            }
            let echoed = try await withTaskExecutorPreference(Self.executor) {
                try await client.call("echo", params: ["on the loop"])
            }

            // Then observers never ran on the service thread, and nothing was lost
            #expect(echoed == ["on the loop"])
            #expect(onLoop.count == 0)
            #expect(seen.withLock { $0 } == (1...20).flatMap { Array(0..<$0) })
            await client.close()
        }
    }

    @Test func pipelinedCallsFromTheLoopAllCompleteOnce() async throws {
        try await withListener(server()) { listener in
            // Given a client that reads on the event loop, and 500 calls in flight from tasks on the loop
            let client = JSONRPCClient(url: listener.url, configuration: .init(readsOnEventLoop: true))
            try await client.connect()
            let results = try await withDeadline(.seconds(10), "500 calls") {
                try await withTaskExecutorPreference(Self.executor) {
                    try await withThrowingTaskGroup(of: Int.self) { group in
                        for index in 0..<500 {
                            group.addTask { try await client.call("echo", params: [.int(index)])[0]?.intValue ?? -1 }
                        }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                }
            }

            // Then each completed exactly once with its own answer
            #expect(results.sorted() == Array(0..<500))
            #expect(client.pendingRequestIDs.isEmpty)
            await client.close()
        }
    }
}
