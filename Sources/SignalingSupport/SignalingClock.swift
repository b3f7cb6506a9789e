/// A point in time on a ``SignalingClock``: the time elapsed since that clock's own origin.
public struct ClockInstant: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Time since the clock's origin.
    public var offset: Duration

    /// Creates an instant `offset` after the clock's origin.
    public init(offset: Duration) { self.offset = offset }

    public static func < (lhs: ClockInstant, rhs: ClockInstant) -> Bool { lhs.offset < rhs.offset }
    public static func + (lhs: ClockInstant, rhs: Duration) -> ClockInstant { ClockInstant(offset: lhs.offset + rhs) }
    public static func - (lhs: ClockInstant, rhs: ClockInstant) -> Duration { lhs.offset - rhs.offset }
    public var description: String { "t+\(offset)" }
}

/// A handle to a scheduled timer. Cancelling is idempotent and safe from any thread; after `cancel()` returns,
/// the action has either already started or will never run.
public protocol TimerHandle: Sendable {
    /// Prevents the action from running if it has not started yet.
    func cancel()
}

/// The injectable clock behind every timer in the package: request timeouts, retries, heartbeat, backoff,
/// the reconnection window and watchdogs (docs/architecture.md#time).
///
/// Production code uses ``SystemClock``; tests use ``ManualClock`` and advance time by hand, so timing logic
/// is tested in microseconds and deterministically.
public protocol SignalingClock: Sendable {
    /// The current instant.
    var now: ClockInstant { get }

    /// Runs `action` once, `delay` from now, on no particular thread.
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any TimerHandle
}

extension SignalingClock {
    /// Suspends the current task for `delay` on this clock. Throws `CancellationError` when the task is
    /// cancelled first.
    public func sleep(for delay: Duration) async throws {
        let state = LockedValue<SleepState>(.idle)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let handle = schedule(after: delay) {
                    let resumed = state.withLock { s -> CheckedContinuation<Void, any Error>? in
                        guard case .waiting(let c, _) = s else { s = .done; return nil }
                        s = .done
                        return c
                    }
                    resumed?.resume()
                }
                let next = state.withLock { s -> SleepRegistration in
                    switch s {
                    case .idle: s = .waiting(continuation, handle); return .wait
                    case .cancelled: s = .done; return .cancel
                    case .done: return .resumeNow  // the timer fired before we registered
                    case .waiting: preconditionFailure("sleep registered twice")
                    }
                }
                switch next {
                case .wait: break
                case .cancel:
                    handle.cancel()
                    continuation.resume(throwing: CancellationError())
                case .resumeNow: continuation.resume()
                }
            }
        } onCancel: {
            let pending = state.withLock { s -> (CheckedContinuation<Void, any Error>, any TimerHandle)? in
                switch s {
                case .idle: s = .cancelled; return nil
                case .waiting(let c, let h): s = .done; return (c, h)
                case .cancelled, .done: return nil
                }
            }
            if let (continuation, handle) = pending {
                handle.cancel()
                continuation.resume(throwing: CancellationError())
            }
        }
    }
}

private enum SleepState {
    case idle
    case waiting(CheckedContinuation<Void, any Error>, any TimerHandle)
    case cancelled
    case done
}

private enum SleepRegistration { case wait, cancel, resumeNow }
