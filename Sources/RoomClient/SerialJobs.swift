import SignalingSupport

/// Async jobs run one at a time, in the order they were enqueued, on a task started with the first job: what the
/// receive loop hands to a ``RoomClient``'s PeerManager (the server's candidates, subscriptions to make or forget),
/// which must not wait in the loop and must keep the wire's order.
final class SerialJobs: Sendable {
    typealias Job = @Sendable () async -> Void
    private let queue = LockedValue<(continuation: AsyncStream<Job>.Continuation?, task: Task<Void, Never>?)>((nil, nil))

    /// Runs `job` after every job enqueued before it.
    func enqueue(_ job: @escaping Job) {
        queue.withLock { q in
            if q.continuation == nil {
                let (jobs, continuation) = AsyncStream<Job>.makeStream()
                q.continuation = continuation
                q.task = Task { for await job in jobs { await job() } }
            }
            q.continuation?.yield(job)
        }
    }

    /// Returns once every job enqueued before ran. Never from a job: it would wait for itself.
    func drain() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in enqueue { done.resume() } }
    }

    /// Runs no more jobs once those enqueued ran.
    func finish() { queue.withLock { $0.continuation?.finish() } }
}
