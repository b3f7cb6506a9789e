import JSONRPC
import JSONRPCWebSocket
import SignalingSupport
import TestSupport
import Testing

/// Shutdown always ends (docs/architecture.md#shutdown): a handler that ignores cancellation still loses its slot at
/// its deadline, and a listener's shutdown returns within its timeout whatever its handlers do.
@Suite struct ShutdownDeadlineTests {
    private func request(_ method: String, id: Int) -> String {
        #"{"jsonrpc":"2.0","method":"\#(method)","id":\#(id),"params":[]}"#
    }

    /// Registers `stubborn`: it parks on `gate`, ignoring cancellation, and notes when it is cancelled.
    private func registerStubborn(on server: JSONRPCServer, gate: Gate, parked: Counter, cancelled: Counter) {
        server.register("stubborn") { _, _ in
            parked.increment()
            await withTaskCancellationHandler { await gate.wait() } onCancel: { cancelled.increment() }
            return "late"
        }
    }

    @Test func aCancelledConnectionEndsAtItsHandlersDeadlineThoughAHandlerIgnoresCancellation() async throws {
        // Given a server whose handlers may run 5 s, on a manual clock, running a handler that ignores cancellation
        let clock = ManualClock()
        let server = JSONRPCServer(configuration: .init(conventions: .plain, clock: clock, handlerTimeout: .seconds(5)))
        let gate = Gate(), parked = Counter(), cancelled = Counter()
        registerStubborn(on: server, gate: gate, parked: parked, cancelled: cancelled)
        let (near, far) = LocalMessageConnection.pair()
        let serving = Task { await server.serve(far) }
        try await near.send(request("stubborn", id: 1))
        try await waitUntil("the handler to park") { parked.count == 1 }

        // When the serving task is cancelled (a shutdown), and then the handler's deadline passes
        serving.cancel()
        try await waitUntil("the handler to be cancelled") { cancelled.count == 1 }
        clock.advance(by: .seconds(5))

        // Then serving ends, although the handler has not returned
        try await returnsWithin(.seconds(10), "the connection's serving to end") { await serving.value }
        gate.open()
    }

    @Test func aListenerShutsDownWithinItsTimeoutWhenAHandlerNeverReturns() async throws {
        // Given a server without a handler deadline, on a WebSocket, running a handler that ignores cancellation
        let server = JSONRPCServer(configuration: .init(conventions: .plain, handlerTimeout: nil))
        let gate = Gate(), parked = Counter(), cancelled = Counter()
        registerStubborn(on: server, gate: gate, parked: parked, cancelled: cancelled)
        let listener = try await server.listen(on: .init())
        let peer = try await RawPeer.connected(to: listener)
        try await peer.send(request("stubborn", id: 1))
        try await waitUntil("the handler to park") { parked.count == 1 }

        // When the listener shuts down with a timeout of 200 ms
        // Then it returns (well within the test's deadline), abandoning the handler
        try await returnsWithin(.seconds(10), "the listener's shutdown") {
            await listener.shutdown(timeout: .milliseconds(200))
        }
        #expect(cancelled.count == 1)
        gate.open()
    }
}
