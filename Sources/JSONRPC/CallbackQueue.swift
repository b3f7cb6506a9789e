import SignalingSupport

/// Runs a client's calls into user code (observers, `apply` closures, and what is published with them) one at a
/// time, in the order they were queued, and never under a lock: a callback may read the client and call it.
/// It has no thread of its own: whoever queues work while nothing runs runs it, then everything queued
/// meanwhile, by other threads or by the callbacks themselves. So a callback that causes more work (an observer
/// that closes the client, changing its state) returns at once, and that work runs right after it, in order.
package final class CallbackQueue: Sendable {
    private struct Item {
        let body: @Sendable () -> Void
        /// Resumed once `body` ran, for ``perform(_:)``.
        let done: CheckedContinuation<Void, Never>?
    }
    private struct State {
        var queued: [Item] = []
        /// Someone is running the queue; `queued` is never left non-empty while this is false.
        var running = false
    }
    private let state = LockedValue(State())

    /// Creates an empty queue.
    package init() {}

    /// Queues `body` and returns whether the caller must now call ``runQueued()``: true when nothing was running.
    /// Callable while holding another lock (so that work is queued in that lock's order); ``runQueued()`` is not.
    package func enqueue(_ body: @escaping @Sendable () -> Void) -> Bool {
        enqueue(Item(body: body, done: nil))
    }

    private func enqueue(_ item: Item) -> Bool {
        state.withLock { s in
            s.queued.append(item)
            defer { s.running = true }
            return !s.running
        }
    }

    /// Runs what is queued, and what gets queued meanwhile, until the queue is empty. Only after ``enqueue(_:)``
    /// returned true, and outside every lock.
    package func runQueued() {
        while true {
            let batch = state.withLock { s -> [Item] in
                if s.queued.isEmpty { s.running = false }
                defer { s.queued = [] }
                return s.queued
            }
            if batch.isEmpty { return }
            for item in batch {
                item.body()
                item.done?.resume()
            }
        }
    }

    /// Runs `body` in order: now on this thread when nothing else runs, else after the work queued before it, on
    /// the thread that runs that.
    package func run(_ body: @escaping @Sendable () -> Void) {
        if enqueue(body) { runQueued() }
    }

    /// Runs `body` in order, like ``run(_:)``, and returns once it ran (the receive loop waits, so that a slow
    /// callback slows the reading of the connection rather than piling messages up).
    package func perform(_ body: @escaping @Sendable () -> Void) async {
        let claimed = state.withLock { s -> Bool in
            guard !s.running else { return false }
            s.running = true
            return true
        }
        if claimed {
            // Nothing ran, so nothing was queued: `body` is next. No continuation on this, the common, path.
            body()
            runQueued()
            return
        }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            if enqueue(Item(body: body, done: done)) { runQueued() }
        }
    }

    /// Whether nothing runs or waits in the queue.
    package var isIdle: Bool { state.withLock { !$0.running } }

    /// Queues `body` to run in order on a task of the global executor, never on the caller's thread (the caller
    /// may be an event loop's service thread, and `body` user code). Returns at once while at most `limit` items
    /// wait; beyond that, once `body` ran, so a producer cannot outrun a slow callback without bound.
    package func handOff(waitingBeyond limit: Int, _ body: @escaping @Sendable () -> Void) async {
        let backlog = state.withLock { $0.queued.count }
        if backlog < limit {
            if enqueue(body) { runElsewhere() }
            return
        }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            if enqueue(Item(body: body, done: done)) { runElsewhere() }
        }
    }

    /// Runs the queue in a new task on the global executor (unstructured: it inherits no executor preference).
    private func runElsewhere() {
        Task(executorPreference: globalConcurrentExecutor) { self.runQueued() }
    }

    /// Returns once everything queued before this call ran.
    package func settle() async { await perform {} }
}
