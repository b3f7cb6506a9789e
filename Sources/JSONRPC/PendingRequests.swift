import SignalingSupport

/// The table of requests sent and not yet answered, with their timeout and retry timers
/// (docs/architecture.md#exactly-once).
///
/// Each entry keeps the exact text that was sent, so a retry re-sends the *same id* with a doubled timeout,
/// and a later reconnect can re-send every pending request as it was (``pendingMessages``). An entry is
/// removed by whichever path completes it first (response, timeout, cancel, drop); only that path fulfils the
/// entry's ``OneShot``, so each request completes exactly once and a late or duplicate response finds nothing.
/// Used by the client for its calls and by the server for its server→client requests.
final class PendingRequests: Sendable {
    typealias Outcome = Result<JSONValue, RPCError>
    /// Transmits one message text; called again for each retry.
    typealias Transmit = @Sendable (String) async throws -> Void

    private struct Entry {
        let method: String
        let text: String
        let transmit: Transmit
        let outcome: OneShot<Outcome>
        /// Runs on a successful outcome before the waiters resume (see `register`).
        let onSuccess: (@Sendable (JSONValue) -> Void)?
        var attempts: Int
        var timeout: Duration
        var timer: (any TimerHandle)?
    }
    private let entries = LockedValue([RequestID: Entry]())
    private let clock: any SignalingClock
    private let retries: Int

    init(clock: any SignalingClock, retries: Int) {
        self.clock = clock
        self.retries = max(0, retries)
    }

    /// Registers a request and starts its first timeout. Call this *before* sending, so that a response
    /// arriving before `send` returns still finds its entry (docs/libwebsockets.md#prior-art). Deadlines run from
    /// registration (docs/architecture.md#reconnect: "request deadlines keep running" while a send waits). `onSuccess`
    /// runs synchronously in whichever path completes the request with a result (the receive loop), before the waiters
    /// resume.
    func register(id: RequestID, method: String, text: String, timeout: Duration, retries: Int? = nil,
                  onSuccess: (@Sendable (JSONValue) -> Void)? = nil,
                  transmit: @escaping Transmit) -> OneShot<Outcome> {
        let outcome = OneShot<Outcome>()
        let entry = Entry(method: method, text: text, transmit: transmit, outcome: outcome, onSuccess: onSuccess,
                          attempts: 1, timeout: timeout, timer: nil)
        entries.withLock { $0[id] = entry }
        armTimer(id: id, after: timeout, attempt: 1, retries: retries ?? self.retries)
        return outcome
    }

    /// Schedules attempt `attempt`'s timeout outside the lock (the clock may be the user's) and keeps its handle
    /// with the entry; a request completed meanwhile gets its timer cancelled at once.
    private func armTimer(id: RequestID, after delay: Duration, attempt: Int, retries: Int) {
        let timer = clock.schedule(after: delay) { [weak self] in
            self?.timerFired(id: id, attempt: attempt, retries: retries)
        }
        let kept = entries.withLock { table -> Bool in
            guard table[id]?.attempts == attempt else { return false }
            table[id]?.timer = timer
            return true
        }
        if !kept { timer.cancel() }
    }

    private enum TimerAction { case resend(String, Transmit, Duration, Int), fail(OneShot<Outcome>, RPCError) }

    private func timerFired(id: RequestID, attempt: Int, retries: Int) {
        let action = entries.withLock { table -> TimerAction? in
            guard var entry = table[id], entry.attempts == attempt else { return nil }
            if entry.attempts <= retries {
                entry.attempts += 1
                entry.timeout = entry.timeout * 2
                entry.timer = nil
                table[id] = entry
                return .resend(entry.text, entry.transmit, entry.timeout, entry.attempts)
            }
            table[id] = nil
            return .fail(entry.outcome, .timeout(method: entry.method, attempts: entry.attempts))
        }
        switch action {
        case .resend(let text, let transmit, let timeout, let attempt)?:
            armTimer(id: id, after: timeout, attempt: attempt, retries: retries)
            // A failed re-send needs no handling here: the connection's end fails the entry (or its next timer does).
            Task { try? await transmit(text) }
        case .fail(let outcome, let error)?:
            outcome.fulfill(.failure(error))
        case nil:
            break
        }
    }

    /// Completes the request `id` with `outcome` if it is still pending; returns whether it was. With
    /// `unlessApplying`, a result for a request with `onSuccess` (user code) is left pending and false returned.
    @discardableResult
    func complete(_ id: RequestID, with outcome: Outcome, unlessApplying: Bool = false) -> Bool {
        let taken = entries.withLock { table -> Entry? in
            guard let entry = table[id] else { return nil }
            if unlessApplying, entry.onSuccess != nil, case .success = outcome { return nil }
            table[id] = nil
            return entry
        }
        guard let entry = taken else { return false }
        entry.timer?.cancel()
        if case .success(let result) = outcome { entry.onSuccess?(result) }
        return entry.outcome.fulfill(outcome)
    }

    /// Completes every pending request with `error` (a drop without reconnect, or cancel-all); returns how many.
    @discardableResult
    func failAll(with error: RPCError) -> Int {
        let all = entries.withLock { table -> [Entry] in
            defer { table = [:] }
            return Array(table.values)
        }
        for entry in all {
            entry.timer?.cancel()
            entry.outcome.fulfill(.failure(error))
        }
        return all.count
    }

    /// Whether `id` is pending.
    func contains(_ id: RequestID) -> Bool { entries.withLock { $0[id] != nil } }

    /// The ids of all pending requests.
    var ids: [RequestID] { entries.withLock { Array($0.keys) } }

    /// Every pending request's id and exact text, for re-sending after a reconnect (docs/architecture.md#resume).
    var pendingMessages: [(id: RequestID, text: String)] { entries.withLock { $0.map { ($0.key, $0.value.text) } } }
}
