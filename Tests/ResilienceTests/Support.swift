import JSONRPC
import SignalingSupport
import TestSupport

/// A transport of in-memory connection pairs: each `connect()` hands the far end to the test (``nextPeer()``),
/// or fails while ``refusing`` is set.
final class ScriptedTransport: MessageTransport {
    private let farEnds: AsyncStream<LocalMessageConnection>
    private let continuation: AsyncStream<LocalMessageConnection>.Continuation
    private let state = LockedValue((refusing: false, hanging: false, attempts: 0))

    init() { (farEnds, continuation) = AsyncStream.makeStream() }

    var refusing: Bool {
        get { state.withLock { $0.refusing } }
        set { state.withLock { $0.refusing = newValue } }
    }

    /// Whether a connect hangs (a handshake that never completes) until its task is cancelled.
    var hanging: Bool {
        get { state.withLock { $0.hanging } }
        set { state.withLock { $0.hanging = newValue } }
    }

    var attempts: Int { state.withLock { $0.attempts } }

    func connect() async throws -> any MessageConnection {
        let (refuse, hang) = state.withLock { s -> (Bool, Bool) in
            s.attempts += 1
            return (s.refusing, s.hanging)
        }
        if refuse { throw ConnectionEnd(code: 1006, reason: "connection refused") }
        if hang {
            // Simulates a peer that never completes the handshake: only cancellation ends it.
            let (never, continuation) = AsyncStream<Never>.makeStream()
            for await _ in never {}
            continuation.finish()  // (also keeps the stream open until the loop ends)
            try Task.checkCancellation()
            throw ConnectionEnd(code: 1006, reason: "handshake timeout")
        }
        let (near, far) = LocalMessageConnection.pair()
        continuation.yield(far)
        return near
    }

    /// The server end of the next connection the client opens.
    func nextPeer() async throws -> ScriptedPeer {
        try await withDeadline(.seconds(10), "the client to connect") { [farEnds] in
            var iterator = farEnds.makeAsyncIterator()
            guard let far = await iterator.next() else { throw ConnectionEnd(code: 1006, reason: "no more") }
            return ScriptedPeer(connection: far)
        }
    }
}

/// The server end of one scripted connection, speaking JSON text.
struct ScriptedPeer: Sendable {
    let connection: LocalMessageConnection

    func receive() async throws -> JSONValue {
        try await withDeadline(.seconds(10), "a message from the client") { [connection] in
            try JSONValue(parsing: try await connection.receive())
        }
    }

    func send(_ value: JSONValue) async throws { try await connection.send(value.jsonText) }

    /// Answers request `request` with `result`.
    func reply(to request: JSONValue, _ result: JSONValue) async throws {
        try await send(["jsonrpc": "2.0", "id": request["id"] ?? .null, "result": result])
    }

    func close(code: UInt16, reason: String = "") async { await connection.close(code: code, reason: reason) }
}

/// Every connection state a client went through, recorded from its ``JSONRPCClient/connectionStates``.
final class StateLog: Sendable {
    private let states: Arrivals<ConnectionState>

    init(_ client: JSONRPCClient) { states = Arrivals("connection states", of: client.connectionStates) }

    var all: [ConnectionState] { states.all }

    /// Waits until a state matching `predicate` was recorded.
    func wait(for what: String, _ predicate: @escaping @Sendable (ConnectionState) -> Bool) async throws {
        try await states.first(what, where: predicate)
    }
}

/// A ManualClock helper: waits until something scheduled a timer, then moves time by `step`.
func advance(_ clock: ManualClock, by step: Duration, whenTimersExceed count: Int = 0) async throws {
    try await waitUntil("a timer to be scheduled") { clock.pendingTimers > count }
    clock.advance(by: step)
}

/// A ManualClock helper: waits until a timer is due within `step` (`what`, e.g. the backoff's sleep), then moves time
/// by `step`, firing it. Unlike counting timers, a timer armed long before (a request's deadline) cannot stand in for
/// the one awaited: moved before the backoff's sleep is armed, time would pass without waking it.
func advance(_ clock: ManualClock, by step: Duration, onceDue what: String) async throws {
    try await waitUntil("\(what) to be due within \(step)") {
        guard let next = clock.nextDeadline else { return false }
        return next <= clock.now + step
    }
    clock.advance(by: step)
}

extension JSONRPCClient.Backoff {
    /// Scaled down for socket tests: 50 ms doubling to 400 ms, a 2 s server window, a budget of 10 s.
    static let fast = JSONRPCClient.Backoff(initialDelay: .milliseconds(50), maximumDelay: .milliseconds(400),
                                            budget: .seconds(10 * deadlineScale), reconnectionWindow: .seconds(2))
}

