@testable import JSONRPC
import SignalingSupport
import Testing
import TestSupport

/// Liveness and cancellation: a choked socket is a lost connection within one heartbeat interval (the pong
/// deadline counts from when the ping was queued, not written), and `connect()` honours task cancellation.
@Suite struct LivenessTests {
    /// A connection that takes every message and never writes one (a socket whose send buffer stays full), and
    /// never receives anything until it is closed.
    final class ChokedConnection: MessageConnection {
        private let closed = Gate()
        let taken = Counter()

        func enqueue(_ text: String, whenWritten: (@Sendable (ConnectionEnd?) -> Void)?) throws { taken.increment() }

        func receive() async throws -> String {
            await closed.wait()
            throw ConnectionEnd(code: 1006, reason: "closed")
        }

        func close(code: UInt16, reason: String) async { closed.open() }
    }

    @Test func aPingThatIsNeverWrittenIsALostConnectionWithinOneInterval() async throws {
        // Given a client with a 1 s heartbeat on a socket that accepts nothing more after the handshake
        let clock = ManualClock(), transport = FixedTransport(connection: ChokedConnection())
        let client = JSONRPCClient(transport: transport, configuration: .init(
            reconnect: .off, heartbeat: .every(.seconds(1)), clock: clock))
        try await client.connect()

        // When its first ping is queued (never written) and one more interval passes
        try await waitUntil("the heartbeat timer") { clock.pendingTimers == 1 }
        clock.advance(by: .seconds(1))
        try await waitUntil("the ping to be queued") { transport.connection.taken.count == 1 }
        clock.advance(by: .seconds(1))

        // Then the connection is lost by the heartbeat, not after the transport's own 40 s
        try await waitUntil("the heartbeat to declare the connection lost") {
            if case .disconnected(let end?) = client.connectionState { end.reason.hasPrefix("heartbeat lost") } else { false }
        }
    }

    @Test func cancellingConnectEndsTheCallAtOnceAndAbandonsTheAttempt() async throws {
        // Given a transport whose handshake never completes
        let transport = ScriptedTransport()
        transport.hanging = true
        let client = JSONRPCClient(transport: transport, configuration: .init(reconnect: .off))

        // When connect() is called and its task cancelled
        let connecting = Task { try await client.connect() }
        try await waitUntil("the attempt to start") { transport.attempts == 1 }
        connecting.cancel()

        // Then the call ends at once with cancellation, and the abandoned attempt leaves the client disconnected
        await #expect(throws: RPCError.cancelled) { try await withDeadline(.seconds(5), "connect to end") { try await connecting.value } }
        try await waitUntil("the attempt to be abandoned") {
            if case .disconnected = client.connectionState { true } else { false }
        }
    }

    @Test func oneCancelledCallerDoesNotCancelTheAttemptOthersWaitFor() async throws {
        // Given a transport whose handshake hangs, and two callers of connect()
        let transport = ScriptedTransport()
        transport.hanging = true
        let client = JSONRPCClient(transport: transport, configuration: .init(reconnect: .off, heartbeat: .off))
        let first = Task { try await client.connect() }
        try await waitUntil("the attempt to start") { transport.attempts == 1 }
        let second = Task { try await client.connect() }
        try await waitUntil("both to wait") { client.connectWaiters == 2 }

        // When the first is cancelled
        first.cancel()

        // Then it ends with cancellation while the attempt goes on for the second
        await #expect(throws: RPCError.cancelled) { try await withDeadline(.seconds(5), "connect to end") { try await first.value } }
        #expect(client.connectionState == .connecting)
        #expect(transport.attempts == 1)

        // And cancelling the second, the last waiter, abandons the attempt
        second.cancel()
        await #expect(throws: RPCError.cancelled) { try await withDeadline(.seconds(5), "connect to end") { try await second.value } }
        try await waitUntil("the attempt to be abandoned") {
            if case .disconnected = client.connectionState { true } else { false }
        }
    }
}
