import SignalingSupport

/// Runs one session's ``JSONRPCServer/whenSessionEnds(_:)`` and ``JSONRPCServer/whenSessionResumes(_:)`` handlers,
/// application code, on the global concurrent executor, never on the event loop's service thread, one batch after
/// the other in the order they were queued (a resume's handlers before the session's end's;
/// docs/architecture.md#handler-placement). Queueing never waits.
final class SessionHandlerQueue: Sendable {
    /// The batch queued last; the next one waits for it.
    private let last = LockedValue<Task<Void, Never>?>(nil)

    /// Queues `batch` after every batch queued before it.
    func enqueue(_ batch: @escaping @Sendable () -> Void) {
        last.withLock { last in
            let previous = last
            last = Task(executorPreference: globalConcurrentExecutor) {
                await previous?.value
                batch()
            }
        }
    }
}
