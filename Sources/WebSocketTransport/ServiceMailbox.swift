import CLibWebSockets
import DequeModule
import Foundation
import SignalingSupport

/// The way onto a loop's service thread: closures and task jobs queue here from any thread, and
/// `lws_cancel_service` (the one lws call that is safe from any thread) wakes the service thread to run them.
///
/// On the service thread itself nothing is woken: a job enqueued while an lws callback runs (a task of
/// ``WebSocketEventLoopExecutor`` resumed by a received message, say) waits in a thread-local queue and runs
/// when the outermost callback returns, still inside `lws_service`, so a receive → handle → write path crosses
/// no thread. At most ``jobBudget`` jobs run per callback; with more, the loop wakes itself and services its
/// sockets first, so a task that keeps yielding cannot starve the sockets. Connections with frames to write wait in
/// a list that ``flushWrites()`` writes once per turn of the loop, before it polls again.
final class ServiceMailbox: @unchecked Sendable {
    // @unchecked: `queued` and `contextForWake` are lock-guarded; the fields under "service thread only" are
    // touched only on the thread bound with ``bindServiceThread()``.

    /// A task job and the executor it runs on.
    struct Job: Sendable {
        let job: UnownedJob
        let executor: UnownedTaskExecutor
        func run() { job.runSynchronously(on: executor) }
    }

    private struct Queued {
        var commands: [@Sendable () -> Void] = []
        var jobs: [Job] = []
        var wakePending = false
        /// Why the mailbox takes no more work: set by shutdown, when the service loop ends, or when the loop never
        /// started. Work accepted before it was set still runs on the service thread, before the context is
        /// destroyed.
        var refusal: TransportError?
    }
    private let queued = LockedValue(Queued())
    /// Guards `lws_cancel_service` against `lws_context_destroy` (docs/libwebsockets.md#rules, rule 1).
    private let contextForWake = LockedValue<ContextHandle?>(nil)

    /// Jobs run per outermost callback before the loop services its sockets again.
    static let jobBudget = 256

    // --- service thread only ---
    private var localJobs = Deque<Job>()
    /// Connections with frames to write at the end of this turn of the loop (``deferWrite(_:)``).
    private var writers: [ConnectionCore] = []
    /// The writers ``flushWrites()`` is writing; swapped with `writers`, so that neither list is reallocated per turn.
    private var flushing: [ConnectionCore] = []
    /// Whether a running loop calls ``flushWrites()`` before it polls again.
    var flushesWrites = false
    /// lws callbacks (and mailbox drains) now running on the stack; local jobs run when it returns to 0.
    private var depth = 0

    /// Rounds of writes, and of the jobs they resume, one ``flushWrites()`` runs before the rest waits for `WRITEABLE`.
    static let writeRounds = 4

    init() {}

    private var identity: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Marks the calling thread as this mailbox's service thread.
    func bindServiceThread() { pthread_setspecific(serviceThreadKey, identity) }

    /// Whether the caller runs on this mailbox's service thread.
    var isServiceThread: Bool { pthread_getspecific(serviceThreadKey) == identity }

    /// Lets `lws_cancel_service` reach `context` (nil: no context, wakes are dropped).
    func setContext(_ context: OpaquePointer?) {
        contextForWake.withLock { $0 = context.map { ContextHandle(raw: $0) } }
    }

    // MARK: Any thread

    /// Queues `command` for the service thread. Safe from any thread.
    /// - Throws: the refusal once the loop is shutting down; `command` is then dropped unrun.
    func submit(_ command: @escaping @Sendable () -> Void) throws(TransportError) {
        let outcome = queued.withLock { q -> Result<Bool, TransportError> in
            if let refusal = q.refusal { return .failure(refusal) }
            q.commands.append(command)
            return .success(Self.needsWake(&q))
        }
        if try outcome.get() { wake() }
    }

    /// Runs `job` on the service thread: without a wake-up when called there inside a callback, else through the
    /// queue. Once the loop is shutting down the job runs on a Dispatch worker instead: a task is never dropped.
    func enqueue(_ job: Job) {
        // The thread check first: `depth` belongs to the service thread and is read nowhere else.
        if isServiceThread, depth > 0 {
            localJobs.append(job)
            return
        }
        let outcome = queued.withLock { q -> Bool? in
            if q.refusal != nil { return nil }
            q.jobs.append(job)
            return Self.needsWake(&q)
        }
        switch outcome {
        case nil: DispatchQueue.global().async { job.run() }
        case true?: wake()
        case false?: break
        }
    }

    private static func needsWake(_ q: inout Queued) -> Bool {
        if q.wakePending { return false }
        q.wakePending = true
        return true
    }

    /// From now on the mailbox refuses work with `error` (the first reason given wins).
    func refuse(_ error: TransportError) {
        queued.withLock { q in q.refusal = q.refusal ?? error }
    }

    /// Why the mailbox refuses work, if it does.
    var refusal: TransportError? { queued.withLock { $0.refusal } }

    /// Wakes the service thread (`LWS_CALLBACK_EVENT_WAIT_CANCELLED` follows). Safe from any thread.
    func wake() {
        contextForWake.withLock { handle in
            if let handle { lws_cancel_service(handle.raw) }
        }
    }

    // MARK: Service thread

    /// Runs `body` as a callback: jobs it enqueues run once the outermost callback returns.
    @inline(__always)
    func callback<T>(_ body: () -> T) -> T {
        depth += 1
        let result = body()
        depth -= 1
        if depth == 0, !localJobs.isEmpty { runLocalJobs() }
        return result
    }

    /// Service thread: takes `core` for a write at the end of this turn of the loop (``flushWrites()``), instead of a
    /// `WRITEABLE` callback on the next turn: two `epoll_ctl` and a poll saved per message, while the replies to a
    /// burst of requests read in one turn still go out together (docs/libwebsockets.md#writes). Returns false while
    /// no loop runs that flushes: the caller then asks lws for `WRITEABLE`.
    func deferWrite(_ core: ConnectionCore) -> Bool {
        guard flushesWrites else { return false }
        writers.append(core)
        return true
    }

    /// Service thread, once per turn of the loop before it polls again (libev's prepare watcher, or after each
    /// `lws_service`): writes what the connections of ``deferWrite(_:)`` queued, runs the jobs those writes resumed,
    /// and the writes they queue, for at most ``writeRounds`` rounds; writes still waiting then ask for `WRITEABLE`.
    func flushWrites() {
        var rounds = 0
        while !writers.isEmpty {
            swap(&writers, &flushing)
            rounds += 1
            depth += 1
            if rounds <= Self.writeRounds {
                for core in flushing { core.writeNow() }
            } else {
                for core in flushing { core.requestWritableCallback() }
            }
            flushing.removeAll(keepingCapacity: true)
            depth -= 1
            if !localJobs.isEmpty { runLocalJobs() }
        }
    }

    /// Runs what other threads queued; called for `LWS_CALLBACK_EVENT_WAIT_CANCELLED` and once more when the
    /// service loop ends.
    func drain() {
        let (commands, jobs) = queued.withLock { q -> ([@Sendable () -> Void], [Job]) in
            q.wakePending = false
            defer {
                q.commands.removeAll(keepingCapacity: true)
                q.jobs.removeAll(keepingCapacity: true)
            }
            return (q.commands, q.jobs)
        }
        depth += 1
        for command in commands { command() }
        for job in jobs { job.run() }
        depth -= 1
        if depth == 0, !localJobs.isEmpty { runLocalJobs() }
    }

    /// Runs local jobs, and the jobs they enqueue, up to the budget; wakes the loop to go on with the rest.
    private func runLocalJobs() {
        depth += 1
        var budget = Self.jobBudget
        while budget > 0, let job = localJobs.popFirst() {
            job.run()
            budget -= 1
        }
        depth -= 1
        guard !localJobs.isEmpty else { return }
        // Hand what is left to the queue, so the next wake-up runs it after lws has serviced its sockets.
        let rest = Array(localJobs)
        localJobs.removeAll()
        let wakeNow = queued.withLock { q -> Bool in
            q.jobs.append(contentsOf: rest)
            return Self.needsWake(&q)
        }
        if wakeNow { wake() }
    }
}

/// The thread-specific key that marks a service thread (its value: the mailbox bound to the thread).
private let serviceThreadKey: pthread_key_t = {
    var key = pthread_key_t()
    let rc = pthread_key_create(&key, nil)
    precondition(rc == 0, "pthread_key_create failed: \(rc)")
    return key
}()

/// A `TaskExecutor` that runs tasks on a ``WebSocketEventLoop``'s service thread, the thread that owns the
/// loop's sockets.
///
/// A task that prefers it (`Task(executorPreference:)`, `withTaskExecutorPreference`) and is resumed by the
/// transport (a message received, a frame written) goes on at the end of that lws callback on the same thread:
/// receive → handle → enqueue the reply → write costs no thread hop and no wake-up. The JSON-RPC layer serves each
/// connection this way and runs only handlers registered for it here.
///
/// - Important: code on this executor runs on the one thread that serves **every** connection of the loop. It must
///   never block (no locks held for long, no synchronous I/O, no `sleep`) and should not compute for long; move such
///   work elsewhere with `withTaskExecutorPreference(globalConcurrentExecutor)`.
///
/// Jobs enqueued from other threads wake the service thread. After the loop has shut down, jobs run on a Dispatch
/// worker, so a task that prefers a dead loop still finishes.
public final class WebSocketEventLoopExecutor: TaskExecutor {
    let mailbox: ServiceMailbox

    init(mailbox: ServiceMailbox) { self.mailbox = mailbox }

    /// Queues `job` for the service thread.
    public func enqueue(_ job: consuming ExecutorJob) {
        mailbox.enqueue(ServiceMailbox.Job(job: UnownedJob(job), executor: asUnownedTaskExecutor()))
    }

    /// Whether the caller runs on this executor's service thread.
    public var isCurrent: Bool { mailbox.isServiceThread }
}
