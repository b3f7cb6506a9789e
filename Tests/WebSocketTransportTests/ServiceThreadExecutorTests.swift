import Foundation
import TestSupport
import Testing
@testable import WebSocketTransport

/// Work on the service thread: ``WebSocketEventLoopExecutor`` runs tasks there, jobs resumed inside a callback run
/// when it returns, a busy task cannot starve the sockets, and both event backends serve connections.
@Suite struct ServiceThreadExecutorTests {
    @Test(arguments: [EventBackend.libev, .poll])
    func eachBackendServesEchoesAndShutsDown(backend: EventBackend) async throws {
        // Given a loop of its own on `backend` (CI installs libwebsockets' libev plugin)
        let loop = try WebSocketEventLoop(configuration: .init(backend: backend))
        #expect(loop.backend == backend)
        let server = try await WebSocketServer.start(loop: loop)
        let client = try await WebSocketConnection.connect(to: server.url + "/echo", loop: loop)
        let accepted = try await firstConnection(server)
        let echoing = Task(executorPreference: accepted.executor) {
            for try await message in accepted.messages { try accepted.enqueue(message) }
        }

        // When 500 messages go out at once and come back
        for index in 0..<500 { try client.enqueue(.text("m\(index)")) }
        let received = try await withDeadline(.seconds(10), "500 echoes") {
            var inbound = client.messages.makeAsyncIterator()
            var texts: [String] = []
            for _ in 0..<500 { if case .text(let text)? = try await inbound.next() { texts.append(text) } }
            return texts
        }

        // Then every one arrives, in order, and the loop shuts down
        #expect(received == (0..<500).map { "m\($0)" })
        await client.close()
        echoing.cancel()
        try await withDeadline(.seconds(5), "shutdown") { await loop.shutdown() }
        #expect(await loop.connectionCount() == 0)
    }

    @Test func aTaskThatPrefersTheLoopRunsOnTheServiceThreadAcrossAwaits() async throws {
        // Given a server and a client on the shared loop
        let server = try await WebSocketServer.start()
        let client = try await WebSocketConnection.connect(to: server.url + "/x")
        let accepted = try await firstConnection(server)
        let executor = accepted.executor
        #expect(!executor.isCurrent)

        // When a task on the connection's executor waits for a message and answers it
        let consumer = Task(executorPreference: executor) { () -> [Bool] in
            var places = [executor.isCurrent]
            var inbound = accepted.messages.makeAsyncIterator()
            _ = try await inbound.next()
            places.append(executor.isCurrent)
            try await accepted.send(.text("answer"))  // resumed by the written report, on the service thread
            places.append(executor.isCurrent)
            return places
        }
        try client.enqueue(.text("question"))
        let places = try await withDeadline(.seconds(10), "consumer") { try await consumer.value }

        // Then it ran on the service thread before and after each suspension
        #expect(places == [true, true, true])
        var inbound = client.messages.makeAsyncIterator()
        #expect(try await inbound.next() == .text("answer"))
        await client.close()
        await server.shutdown()
    }

    @Test func aTaskThatKeepsYieldingOnTheLoopDoesNotStarveItsSockets() async throws {
        // Given a loop whose executor runs a task that yields 200,000 times (far past the job budget per wake-up)
        let loop = try WebSocketEventLoop()
        let server = try await WebSocketServer.start(loop: loop)
        let client = try await WebSocketConnection.connect(to: server.url + "/x", loop: loop)
        let accepted = try await firstConnection(server)
        let spins = Counter()
        let spinner = Task(executorPreference: loop.executor) {
            for _ in 0..<200_000 {
                spins.increment()
                await Task.yield()
            }
        }

        // When a message is echoed meanwhile
        try await echoPing(from: client, via: accepted, while: "the spinner runs")

        // Then the echo came back while the spinner was still running
        #expect(spins.count < 200_000)
        await spinner.value
        await client.close()
        await loop.shutdown()
    }

    @Test func aTaskThatPrefersAShutDownLoopStillFinishes() async throws {
        // Given a loop that has shut down
        let loop = try WebSocketEventLoop()
        await loop.shutdown()

        // When a task prefers its executor and suspends
        let value = try await withDeadline(.seconds(5), "task on a dead loop") {
            await Task(executorPreference: loop.executor) { () -> Int in
                try? await Task.sleep(for: .milliseconds(10))
                return 42
            }.value
        }

        // Then it still runs to the end (on a Dispatch worker)
        #expect(value == 42)
        #expect(!loop.executor.isCurrent)
    }
}
