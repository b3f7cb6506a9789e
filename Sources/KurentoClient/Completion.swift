import SignalingSupport

/// A result delivered once to any number of waiters: the first ``fulfill(_:)`` wins.
final class Completion<Value: Sendable>: Sendable {
    private enum State {
        case pending([CheckedContinuation<Value, Never>])
        case done(Value)
    }
    private let state = LockedValue(State.pending([]))

    /// Delivers `value` unless one was delivered already; returns whether this call delivered it.
    @discardableResult
    func fulfill(_ value: Value) -> Bool {
        let waiters = state.withLock { s -> [CheckedContinuation<Value, Never>]? in
            guard case .pending(let waiters) = s else { return nil }
            s = .done(value)
            return waiters
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(returning: value) }
        return true
    }

    /// Waits for the value.
    func wait() async -> Value {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { s -> Value? in
                switch s {
                case .pending(var waiters):
                    waiters.append(continuation)
                    s = .pending(waiters)
                    return nil
                case .done(let value):
                    return value
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

/// How a wait with a deadline ended.
enum Raced<Value: Sendable>: Sendable {
    case finished(Value)
    case timedOut
    case cancelled
}

/// Waits for `task` until `timeout` passes on `clock` or the calling task is cancelled, whichever comes first. The
/// task itself goes on either way (its owner decides what a late result means).
func race<Value: Sendable>(_ task: Task<Value, Never>, within timeout: Duration, on clock: any SignalingClock)
    async -> Raced<Value>
{
    let outcome = Completion<Raced<Value>>()
    let timer = clock.schedule(after: timeout) { outcome.fulfill(.timedOut) }
    let watcher = Task { outcome.fulfill(.finished(await task.value)) }
    let result = await withTaskCancellationHandler {
        await outcome.wait()
    } onCancel: {
        outcome.fulfill(.cancelled)
    }
    timer.cancel()
    if case .finished = result {} else { watcher.cancel() }
    return result
}
