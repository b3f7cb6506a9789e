package import SignalingSupport

/// How a wait with a deadline ended.
package enum Raced<Value: Sendable>: Sendable {
    case finished(Value)
    case timedOut
    case cancelled
}

/// Waits for `task` until `timeout` passes on `clock` or the calling task is cancelled, whichever comes first. The
/// task itself goes on either way (its owner decides what a late result means).
package func race<Value: Sendable>(_ task: Task<Value, Never>, within timeout: Duration, on clock: any SignalingClock)
    async -> Raced<Value>
{
    let outcome = OneShot<Raced<Value>>()
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
