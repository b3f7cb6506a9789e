import SignalingSupport

/// Per-session duplicate detection: a request is a retry of an earlier one only when it comes in the same
/// session with the same id **and the same content** (method and params, compared as parsed JSON values, so a
/// retry that re-serialized its params with other key order or spacing still matches).
///
/// - The first copy runs the handler; a copy arriving while it runs attaches to that run; a copy arriving after
///   it finished gets the cached response.
/// - The same id with other content is a new request: it runs, and replaces what was remembered for that id.
///   (A new client that resumed someone's session, whose ids start again at 1, is never answered with the old
///   client's replies.)
/// - The requests of one message are looked up together (``begin(_:)``): entries of one batch are never
///   duplicates of each other, even with equal ids and content, and a batch re-sent whole is a retry of each of
///   its entries, matched by content and then by position.
///
/// Finished entries live for `retention` (at least the client's retry span plus the reconnection window) and at
/// most `limit` of them are kept per session, oldest evicted first; each keeps its request's params (the text as
/// received) next to its response, so the memory per session stays bounded by `limit` messages of each kind.
final class ResponseCache: Sendable {
    enum Lookup {
        /// A new request: run the handler, then ``finish(_:with:)`` with this ticket.
        case new(Ticket)
        /// The same request is running: wait for its response.
        case running(OneShot<RPCResponse?>)
        /// The same request finished: this is its response (`nil` when it had none to send).
        case finished(RPCResponse?)
    }

    /// One run of a new request; ``finish(_:with:)`` takes it back.
    struct Ticket: Sendable {
        fileprivate let serial: UInt64
        fileprivate let run: OneShot<RPCResponse?>
    }

    private struct Entry {
        let id: RequestID
        let method: String
        let params: RPCParams?
        let run: OneShot<RPCResponse?>
        /// A hash of the parsed params, computed when a request with the same id and other text arrives.
        var digest: Int?
        var finished = false
        var finishedAt: ClockInstant?
    }
    private struct State {
        var entries: [UInt64: Entry] = [:]
        /// For each id, the entries of the latest message that carried it, in message order.
        var byID: [RequestID: Group] = [:]
        var nextSerial: UInt64 = 0
        var finishedCount = 0
        var nextPurge: ClockInstant?
        /// Finished entries in finish order, oldest from `oldest` on, so eviction is O(1) instead of a scan of
        /// every entry per finished request. Serials whose entry is gone since are skipped.
        var finishQueue: [UInt64] = []
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

    /// The entries of one id: almost always one (kept without an array: this is on every request's path).
    private enum Group {
        case one(UInt64)
        case many([UInt64])
        init(_ serials: [UInt64]) { self = serials.count == 1 ? .one(serials[0]) : .many(serials) }
        var serials: [UInt64] {
            switch self {
            case .one(let serial): [serial]
            case .many(let serials): serials
            }
        }
    }

    /// Classifies one request; call it in arrival order (the receive loop), before running anything.
    func begin(_ request: RPCRequest) -> Lookup {
        let now = clock.now
        // The common case, an id not seen in this session, without the batch path's bookkeeping.
        let fresh = state.withLock { s -> Ticket? in
            if let next = s.nextPurge, now >= next { purge(&s, now: now) }
            guard s.byID[request.id] == nil else { return nil }
            let ticket = newEntry(for: request, in: &s)
            s.byID[request.id] = .one(ticket.serial)
            return ticket
        }
        if let fresh { return .new(fresh) }
        return begin([request])[0]
    }

    /// Classifies the requests of one message (a single request, or the requests of a batch with a non-null id),
    /// in arrival order, before running anything. Returns one lookup per request, in the same order.
    func begin(_ requests: [RPCRequest]) -> [Lookup] {
        let now = clock.now
        return state.withLock { s in
            if let next = s.nextPurge, now >= next { purge(&s, now: now) }
            var lookups = [Lookup?](repeating: nil, count: requests.count)
            var positions: [RequestID: [Int]] = [:]
            for (index, request) in requests.enumerated() { positions[request.id, default: []].append(index) }
            for (id, indices) in positions {
                let earlier = s.byID[id]?.serials ?? []
                var claimed = Set<UInt64>()
                var group: [UInt64] = []
                var changed = false
                for index in indices {
                    let request = requests[index]
                    var digest: Int?
                    let match = earlier.first { serial in
                        guard !claimed.contains(serial), let entry = s.entries[serial] else { return false }
                        guard entry.method == request.method else { return false }
                        if entry.params?.storage == request.rawParams?.storage { return true }
                        // Other text: compare parsed values, behind a hash of each computed once, so a batch of
                        // many equal ids costs one parse per request, not one per pair.
                        let mine = digest ?? Self.digest(request.rawParams)
                        digest = mine
                        let theirs = entry.digest ?? Self.digest(entry.params)
                        s.entries[serial]?.digest = theirs
                        return mine == theirs && RPCParams.sameContent(entry.params, request.rawParams)
                    }
                    if let match, let entry = s.entries[match] {
                        claimed.insert(match)
                        group.append(match)
                        // `finish` records under the lock and fulfils after it: until then, wait for the run.
                        if entry.finished, let response = entry.run.current {
                            lookups[index] = .finished(response)
                        } else {
                            lookups[index] = .running(entry.run)
                        }
                    } else {
                        let ticket = newEntry(for: request, in: &s)
                        group.append(ticket.serial)
                        changed = true
                        lookups[index] = .new(ticket)
                    }
                }
                // Retries change nothing; a new request replaces what the id meant before.
                guard changed else { continue }
                for serial in earlier where !claimed.contains(serial) { remove(serial, from: &s, keepingGroups: true) }
                s.byID[id] = Group(group)
            }
            return lookups.map { $0! }
        }
    }

    /// Records the response of a run and releases the copies waiting for it (also when a newer request with the
    /// same id replaced the entry meanwhile: its waiters still get this run's response).
    func finish(_ ticket: Ticket, with response: RPCResponse?) {
        let now = clock.now
        state.withLock { s in
            guard var entry = s.entries[ticket.serial], !entry.finished else { return }
            entry.finished = true
            entry.finishedAt = now
            s.entries[ticket.serial] = entry
            s.finishedCount += 1
            s.finishQueue.append(ticket.serial)
            if s.nextPurge == nil { s.nextPurge = now + retention }
            if s.finishedCount > limit { evictOldest(&s) }
        }
        ticket.run.fulfill(response)
    }

    /// Remembers `request` as running (the caller files it under its id).
    private func newEntry(for request: RPCRequest, in s: inout State) -> Ticket {
        let ticket = Ticket(serial: s.nextSerial, run: OneShot())
        s.nextSerial += 1
        s.entries[ticket.serial] = Entry(id: request.id, method: request.method, params: request.rawParams, run: ticket.run)
        return ticket
    }

    private static func digest(_ params: RPCParams?) -> Int { params?.value.hashValue ?? 0 }

    /// The number of remembered requests (running and finished).
    var count: Int { state.withLock { $0.entries.count } }

    /// Forgets one entry (and, unless `keepingGroups`, its place in its id's group).
    private func remove(_ serial: UInt64, from s: inout State, keepingGroups: Bool = false) {
        guard let entry = s.entries.removeValue(forKey: serial) else { return }
        if entry.finished { s.finishedCount -= 1 }
        guard !keepingGroups, let group = s.byID[entry.id] else { return }
        switch group {
        case .one(let only): if only == serial { s.byID[entry.id] = nil }
        case .many(let serials):
            let left = serials.filter { $0 != serial }
            s.byID[entry.id] = left.isEmpty ? nil : Group(left)
        }
    }

    private func purge(_ s: inout State, now: ClockInstant) {
        var earliest: ClockInstant?
        for (serial, entry) in s.entries {
            guard let finished = entry.finishedAt else { continue }
            if now - finished >= retention {
                remove(serial, from: &s)
            } else if earliest.map({ finished < $0 }) ?? true {
                earliest = finished
            }
        }
        s.nextPurge = earliest.map { $0 + retention }
        let entries = s.entries
        s.finishQueue = s.finishQueue[s.oldest...].filter { entries[$0] != nil }
        s.oldest = 0
    }

    private func evictOldest(_ s: inout State) {
        while s.oldest < s.finishQueue.count {
            let serial = s.finishQueue[s.oldest]
            s.oldest += 1
            guard s.entries[serial]?.finished == true else { continue }
            remove(serial, from: &s)
            break
        }
        if s.oldest > 64, s.oldest * 2 > s.finishQueue.count {
            s.finishQueue.removeFirst(s.oldest)
            s.oldest = 0
        }
    }
}
