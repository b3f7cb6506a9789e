import Foundation
import SignalingSupport

/// A gate that a synchronous callback (a delegate method) blocks its thread on until the test opens it: how tests
/// play a busy delegate, which synchronous code can only be by holding its thread. Once open it stays open. A
/// blocked caller gives up after `timeout`, so that a failing test cannot hang the run.
///
/// A callback blocks a thread of the cooperative pool, which has as many threads as cores: tests that block one
/// take turns (``withTurn(_:)``), so that parallel tests never hold two of a two-core machine's threads.
public final class BlockingGate: Sendable {
    // NSCondition is thread-safe by itself; `state` is only touched while it is locked.
    private let condition = NSCondition()
    private nonisolated(unsafe) var state = (open: false, blocked: 0)
    private let timeout: Duration

    /// Creates a closed gate whose waiters give up after `timeout` (scaled by ``deadlineScale``).
    public init(timeout: Duration = .seconds(30)) { self.timeout = timeout * deadlineScale }

    /// Blocks the calling thread until the gate is open (or `timeout` passed); returns at once when it is open.
    public func block() {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        state.blocked += 1
        while !state.open, condition.wait(until: deadline) {}
        state.blocked -= 1
    }

    /// Whether a caller is blocked on the gate now.
    public var isBlocking: Bool {
        condition.lock()
        defer { condition.unlock() }
        return state.blocked > 0
    }

    /// Opens the gate: blocked callers go on, and later ones do not block.
    public func open() {
        condition.lock()
        state.open = true
        condition.broadcast()
        condition.unlock()
    }

    /// Runs `body` when no other test that blocks a thread of the cooperative pool is running, waiting (without
    /// blocking) for its turn.
    public static func withTurn<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        await turns.take()
        do {
            let result = try await body()
            turns.give()
            return result
        } catch {
            turns.give()
            throw error
        }
    }

    private static let turns = Turns()

    /// One turn at a time, handed to waiters in order.
    private final class Turns: Sendable {
        private let state = LockedValue<(taken: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

        func take() async {
            await withCheckedContinuation { continuation in
                let now = state.withLock { s -> Bool in
                    guard s.taken else {
                        s.taken = true
                        return true
                    }
                    s.waiters.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }

        func give() {
            let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
                guard !s.waiters.isEmpty else {
                    s.taken = false
                    return nil
                }
                return s.waiters.removeFirst()
            }
            next?.resume()
        }
    }
}
