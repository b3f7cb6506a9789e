import SignalingSupport

/// Per-session duplicate detection (issue 3; PROTOCOL §7.1: clients retry with the same id).
///
/// The first copy of an id runs the handler; a copy arriving while it runs attaches to that run; a copy arriving
/// after it finished gets the cached response. Finished entries live for `retention` (at least the client's retry
/// span plus the reconnection window) and at most `limit` of them are kept per session, oldest evicted first.
final class ResponseCache: Sendable {
    enum Lookup {
        /// First copy: run the handler, then ``finish(_:with:)``.
        case new
        /// The same id is running: wait for its response.
        case running(OneShot<RPCResponse?>)
        /// The same id finished: this is its response (`nil` when it had none to send).
        case finished(RPCResponse?)
    }

    private struct Entry {
        var run: OneShot<RPCResponse?>
        var finishedAt: ClockInstant?
        /// Finish order: ties in `finishedAt` are common on a coarse or manual clock.
        var finishOrder: UInt64 = 0
    }
    private struct State {
        var entries: [RequestID: Entry] = [:]
        var finishedCount = 0
        var finishes: UInt64 = 0
        var nextPurge: ClockInstant?
        /// Finished ids in finish order, oldest from `oldest` on, so eviction is O(1) instead of a scan of every
        /// entry per finished request. Items whose entry was purged (or re-run) since are skipped.
        var finishQueue: [(id: RequestID, order: UInt64)] = []
        var oldest = 0
    }
    private let state = LockedValue(State())
    private let clock: any SignalingClock
    private let retention: Duration
    private let limit: Int

    init(clock: any SignalingClock, retention: Duration, limit: Int) {
        self.clock = clock
        self.retention = retention
        self.limit = max(1, limit)
    }

    /// Classifies a request id; call it in arrival order (the receive loop), before running anything.
    func begin(_ id: RequestID) -> Lookup {
        let now = clock.now
        return state.withLock { s in
            if let next = s.nextPurge, now >= next { purge(&s, now: now) }
            if let entry = s.entries[id] {
                if entry.finishedAt != nil, let response = entry.run.current { return .finished(response) }
                return .running(entry.run)
            }
            s.entries[id] = Entry(run: OneShot(), finishedAt: nil)
            return .new
        }
    }

    /// Records the response of the run of `id` and releases the copies waiting for it.
    func finish(_ id: RequestID, with response: RPCResponse?) {
        let now = clock.now
        let run = state.withLock { s -> OneShot<RPCResponse?>? in
            guard var entry = s.entries[id], entry.finishedAt == nil else { return nil }
            entry.finishedAt = now
            s.finishes += 1
            entry.finishOrder = s.finishes
            s.entries[id] = entry
            s.finishedCount += 1
            s.finishQueue.append((id, entry.finishOrder))
            if s.nextPurge == nil { s.nextPurge = now + retention }
            if s.finishedCount > limit { evictOldest(&s) }
            return entry.run
        }
        run?.fulfill(response)
    }

    /// The number of remembered ids (running and finished).
    var count: Int { state.withLock { $0.entries.count } }

    private func purge(_ s: inout State, now: ClockInstant) {
        var earliest: ClockInstant?
        for (id, entry) in s.entries {
            guard let finished = entry.finishedAt else { continue }
            if now - finished >= retention {
                s.entries[id] = nil
                s.finishedCount -= 1
            } else if earliest.map({ finished < $0 }) ?? true {
                earliest = finished
            }
        }
        s.nextPurge = earliest.map { $0 + retention }
        let entries = s.entries
        s.finishQueue = s.finishQueue[s.oldest...].filter { entries[$0.id]?.finishOrder == $0.order }
        s.oldest = 0
    }

    private func evictOldest(_ s: inout State) {
        while s.oldest < s.finishQueue.count {
            let (id, order) = s.finishQueue[s.oldest]
            s.oldest += 1
            guard let entry = s.entries[id], entry.finishedAt != nil, entry.finishOrder == order else { continue }
            s.entries[id] = nil
            s.finishedCount -= 1
            break
        }
        if s.oldest > 64, s.oldest * 2 > s.finishQueue.count {
            s.finishQueue.removeFirst(s.oldest)
            s.oldest = 0
        }
    }
}
