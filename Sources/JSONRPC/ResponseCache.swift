import SignalingSupport

/// Per-session duplicate detection: a request is a retry of an earlier one only when it comes in the same
/// session with the same id **and the same content** (method and params, compared as parsed JSON values through a
/// ``ContentDigest``, so a retry that re-serialized its params with other key order or spacing still matches).
///
/// - The first copy runs the handler; a copy arriving while it runs attaches to that run; a copy arriving after
///   it finished gets the cached response.
/// - The same id with other content is a new request: it runs, and replaces what was remembered for that id.
///   (A new client that resumed someone's session, whose ids start again at 1, is never answered with the old
///   client's replies.)
/// - The requests of one message are looked up together (``begin(_:)``): entries of one batch are never
///   duplicates of each other, even with equal ids and content, and a batch re-sent whole is a retry of each of
///   its entries, matched by content and then by position.
/// - What is not remembered: -32601 (no handler ran) and -32602 (refused before it could take effect): a copy runs
///   again and gets the same answer.
///
/// Cost (docs/wire-protocol.md#dedupe): O(1) per request, also when every entry of a message shares one id. An id's
/// entries are indexed by content, each content's entries linked in message order, so a lookup never scans the
/// other entries with that id; evictions (oldest finished first) and expiries (after `retention`) take entries from
/// the front of the finish queue.
///
/// Memory: a finished entry keeps the digest of its content, never the params' text, and counts its bytes (its
/// response, its id and a fixed overhead) against the session's budget and the server's (``ResponseCacheBudget``).
/// At most `limit` finished entries and `budget.perSession` bytes are kept per session, oldest evicted first; a
/// response that fits in neither (or finds the server's budget spent by other sessions) is sent but not remembered,
/// like an evicted one.
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
        /// The request, whose digest its entry keeps once it finished.
        fileprivate let request: RPCRequest
    }

    private struct Entry {
        let id: RequestID
        /// The request while it runs (its text is alive anyway); its digest once compared or finished.
        var content: Content
        let run: OneShot<RPCResponse?>
        var finishedAt: ClockInstant?
        /// What it counts against the budgets (finished entries only).
        var bytes = 0
        /// Its neighbours among the entries of its group with the same content, in message order (groups of many).
        var previous: UInt64?
        var next: UInt64?

        /// Marks the run finished at `instant`, keeping `digest` of its content and counting `bytes`.
        mutating func finish(digest: ContentDigest, at instant: ClockInstant, bytes: Int) {
            content = .digest(digest)
            finishedAt = instant
            self.bytes = bytes
        }
    }

    private enum Content {
        case request(RPCRequest)
        case digest(ContentDigest)
    }

    /// The entries of the latest message that carried one id.
    private enum Group {
        /// Almost always one (kept without a table: this is on every request's path).
        case one(UInt64)
        /// Several: for each content, the first and last of its entries (linked through ``Entry/next``), and how
        /// many entries the group holds.
        case many(lists: [ContentDigest: (first: UInt64, last: UInt64)], count: Int)
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var byID: [RequestID: Group] = [:]
        var nextSerial: UInt64 = 0
        var finishedCount = 0
        /// The bytes of the finished entries.
        var bytes = 0
        /// Finished entries in finish order, oldest from `oldest` on. Serials whose entry is gone since (replaced by
        /// a new request with its id) stay until met, counted by `stale`.
        var finishQueue: [UInt64] = []
        var oldest = 0
        var stale = 0
    }
    private let state = LockedValue(State())
    private let clock: any SignalingClock
    private let retention: Duration
    private let limit: Int
    private let budget: ResponseCacheBudget

    /// A cache that remembers finished responses for `retention`, at most `limit` of them and within `budget`.
    init(clock: any SignalingClock, retention: Duration, limit: Int, budget: ResponseCacheBudget = .unlimited) {
        self.clock = clock
        self.retention = retention
        self.limit = max(1, limit)
        self.budget = budget
    }

    deinit { forgetAll() }

    /// A fixed estimate of what one remembered entry costs besides its response and id: its slots in the tables
    /// and the finish queue, its response's envelope.
    static let entryOverhead = 192

    /// Classifies one request; call it in arrival order (the receive loop), before running anything.
    func begin(_ request: RPCRequest) -> Lookup {
        let now = clock.now
        // The common case, an id not seen in this session, without the batch path's bookkeeping.
        let fresh = state.withLock { s -> Ticket? in
            expire(&s, now: now)
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
            expire(&s, now: now)
            var lookups = [Lookup?](repeating: nil, count: requests.count)
            var positions: [RequestID: [Int]] = [:]
            for (index, request) in requests.enumerated() { positions[request.id, default: []].append(index) }
            for (id, indices) in positions {
                // Taken out of the table while it is worked on, so that changing it copies nothing.
                let earlier = s.byID.removeValue(forKey: id)
                var claimed: [Int: UInt64] = [:]
                switch earlier {
                case nil:
                    break
                case .one(let serial):
                    if let index = indices.first(where: { matches(serial, requests[$0], in: &s) }) {
                        claimed[index] = serial
                    }
                case .many(let lists, _):
                    // Per content, the next earlier entry to claim: a cursor along its list, in message order.
                    var cursors: [ContentDigest: UInt64?] = [:]
                    for index in indices {
                        let digest = ContentDigest(requests[index])
                        let candidate = cursors[digest] ?? lists[digest]?.first
                        guard let serial = candidate else { continue }
                        claimed[index] = serial
                        cursors[digest] = .some(s.entries[serial]?.next)
                    }
                }
                for (index, serial) in claimed { lookups[index] = Self.lookup(s.entries[serial]) }
                // Retries change nothing; a new request replaces what the id meant before.
                guard claimed.count < indices.count else {
                    s.byID[id] = earlier
                    continue
                }
                if let earlier { forget(earlier, keeping: Set(claimed.values), in: &s) }
                var members: [UInt64] = []
                for index in indices {
                    if let serial = claimed[index] {
                        members.append(serial)
                    } else {
                        let ticket = newEntry(for: requests[index], in: &s)
                        members.append(ticket.serial)
                        lookups[index] = .new(ticket)
                    }
                }
                s.byID[id] = group(of: members, in: &s)
            }
            return lookups.map { $0! }
        }
    }

    /// Records the response of a run and releases the copies waiting for it (also when a newer request with the
    /// same id replaced the entry meanwhile: its waiters still get this run's response).
    func finish(_ ticket: Ticket, with response: RPCResponse?) {
        let now = clock.now
        let remembered = Self.isRemembered(response)
        // Computed before the lock: a digest reads the whole params once.
        let digest = remembered ? ContentDigest(ticket.request) : nil
        let cost = Self.entryOverhead + Self.footprint(ticket.request.id) + Self.footprint(response)
        state.withLock { s in
            guard let running = s.entries.index(forKey: ticket.serial), s.entries.values[running].finishedAt == nil
            else { return }
            guard let digest, cost <= budget.perSession else { return remove(ticket.serial, in: &s) }
            while s.finishedCount >= limit || s.bytes + cost > budget.perSession {
                guard evictOldest(&s) else { break }
            }
            while !budget.reserve(cost) {
                // The server's budget is spent: give back what this session holds, oldest first, else forget this one.
                guard evictOldest(&s) else { return remove(ticket.serial, in: &s) }
            }
            // Found again (evictions moved the table's indices), and changed in place: one lookup, no copy.
            guard let entry = s.entries.index(forKey: ticket.serial) else { return }
            s.entries.values[entry].finish(digest: digest, at: now, bytes: cost)
            s.finishedCount += 1
            s.bytes += cost
            s.finishQueue.append(ticket.serial)
        }
        ticket.run.fulfill(response)
    }

    /// Forgets everything and gives its bytes back to the server's budget (the session ended).
    func forgetAll() {
        let bytes = state.withLock { s -> Int in
            defer { s = State() }
            return s.bytes
        }
        budget.release(bytes)
    }

    /// The number of remembered requests (running and finished).
    var count: Int { state.withLock { $0.entries.count } }

    /// The bytes the finished entries count against the budgets.
    var bytes: Int { state.withLock { $0.bytes } }

    // MARK: Entries

    /// Remembers `request` as running (the caller files it under its id).
    private func newEntry(for request: RPCRequest, in s: inout State) -> Ticket {
        let ticket = Ticket(serial: s.nextSerial, run: OneShot(), request: request)
        s.nextSerial += 1
        s.entries[ticket.serial] = Entry(id: request.id, content: .request(request), run: ticket.run)
        return ticket
    }

    /// What a copy of a claimed entry gets.
    private static func lookup(_ entry: Entry?) -> Lookup {
        guard let entry else { preconditionFailure("a claimed entry is remembered") }
        // `finish` records under the lock and fulfils after it: until then, wait for the run.
        if entry.finishedAt != nil, let response = entry.run.current { return .finished(response) }
        return .running(entry.run)
    }

    /// Whether `request` has the content of entry `serial`: the same text (while the entry runs), else the same
    /// digest (computed once per entry).
    private func matches(_ serial: UInt64, _ request: RPCRequest, in s: inout State) -> Bool {
        guard let entry = s.entries[serial] else { return false }
        switch entry.content {
        case .digest(let digest):
            return digest == ContentDigest(request)
        case .request(let earlier):
            guard earlier.method == request.method else { return false }
            if earlier.rawParams?.storage == request.rawParams?.storage { return true }
            let digest = ContentDigest(earlier)
            s.entries[serial]?.content = .digest(digest)
            return digest == ContentDigest(request)
        }
    }

    /// The group of the entries `members` (in message order), linking those of one content.
    private func group(of members: [UInt64], in s: inout State) -> Group {
        guard members.count > 1 else { return .one(members[0]) }
        var lists: [ContentDigest: (first: UInt64, last: UInt64)] = [:]
        for serial in members {
            guard let entry = s.entries[serial] else { continue }
            let digest = digest(of: entry)
            s.entries[serial]?.content = .digest(digest)
            s.entries[serial]?.next = nil
            if let list = lists[digest] {
                s.entries[list.last]?.next = serial
                s.entries[serial]?.previous = list.last
                lists[digest] = (list.first, serial)
            } else {
                s.entries[serial]?.previous = nil
                lists[digest] = (serial, serial)
            }
        }
        return .many(lists: lists, count: members.count)
    }

    private func digest(of entry: Entry) -> ContentDigest {
        switch entry.content {
        case .digest(let digest): digest
        case .request(let request): ContentDigest(request)
        }
    }

    /// Forgets the entries of a replaced group but those in `kept`.
    private func forget(_ group: Group, keeping kept: Set<UInt64>, in s: inout State) {
        switch group {
        case .one(let serial):
            if !kept.contains(serial) { discard(serial, in: &s) }
        case .many(let lists, _):
            for list in lists.values {
                var next: UInt64? = list.first
                while let serial = next {
                    next = s.entries[serial]?.next
                    if !kept.contains(serial) { discard(serial, in: &s) }
                }
            }
        }
    }

    /// Forgets entry `serial`, taking it out of its group too.
    private func remove(_ serial: UInt64, in s: inout State) {
        guard let entry = s.entries[serial] else { return }
        switch s.byID.removeValue(forKey: entry.id) {
        case nil:
            break
        case .one(let only):
            if only != serial { s.byID[entry.id] = .one(only) }
        case .many(var lists, let count):
            let digest = digest(of: entry)
            if let previous = entry.previous { s.entries[previous]?.next = entry.next }
            if let next = entry.next { s.entries[next]?.previous = entry.previous }
            if let list = lists[digest] {
                let first = list.first == serial ? entry.next : list.first
                let last = list.last == serial ? entry.previous : list.last
                if let first, let last { lists[digest] = (first, last) } else { lists[digest] = nil }
            }
            if count > 1 { s.byID[entry.id] = .many(lists: lists, count: count - 1) }
        }
        discard(serial, in: &s)
    }

    /// Forgets entry `serial` and gives its bytes back; its group is the caller's business.
    private func discard(_ serial: UInt64, in s: inout State) {
        guard let entry = s.entries.removeValue(forKey: serial), entry.finishedAt != nil else { return }
        s.finishedCount -= 1
        s.bytes -= entry.bytes
        s.stale += 1
        budget.release(entry.bytes)
    }

    // MARK: Eviction and expiry

    /// Forgets the oldest finished entry; `false` when there is none.
    private func evictOldest(_ s: inout State) -> Bool {
        while let serial = popOldest(&s) {
            guard s.entries[serial] != nil else { continue }
            remove(serial, in: &s)
            s.stale -= 1  // it left the queue already
            return true
        }
        return false
    }

    /// Forgets the finished entries older than the retention, from the front of the finish queue.
    private func expire(_ s: inout State, now: ClockInstant) {
        while s.oldest < s.finishQueue.count {
            guard let entry = s.entries[s.finishQueue[s.oldest]] else {
                _ = popOldest(&s)
                continue
            }
            guard let finished = entry.finishedAt, now - finished >= retention else { return }
            _ = evictOldest(&s)
        }
    }

    /// The serial at the front of the finish queue, taken off it (stale ones included); compacts the queue.
    private func popOldest(_ s: inout State) -> UInt64? {
        guard s.oldest < s.finishQueue.count else { return nil }
        let serial = s.finishQueue[s.oldest]
        s.oldest += 1
        if s.entries[serial] == nil { s.stale -= 1 }
        if s.oldest > 64, s.oldest * 2 > s.finishQueue.count {
            s.finishQueue.removeFirst(s.oldest)
            s.oldest = 0
        }
        if s.stale > 64, s.stale * 2 > s.finishQueue.count - s.oldest {
            let entries = s.entries
            s.finishQueue = s.finishQueue[s.oldest...].filter { entries[$0] != nil }
            s.oldest = 0
            s.stale = 0
        }
        return serial
    }

    // MARK: Sizes

    /// Whether a response is worth remembering: not -32601 (no handler ran) nor -32602 (refused before it took
    /// effect), which a copy gets again by running (docs/wire-protocol.md#dedupe).
    static func isRemembered(_ response: RPCResponse?) -> Bool {
        guard case .failure(let error)? = response?.outcome else { return true }
        return error.code != RPCErrorObject.methodNotFound.code && error.code != -32602
    }

    /// An estimate of the bytes `id` holds.
    static func footprint(_ id: RequestID) -> Int {
        switch id {
        case .string(let text), .numberText(let text): text.utf8.count
        case .number, .null: 0
        }
    }

    /// An estimate of the bytes `response` holds: its strings' bytes and 16 per value.
    static func footprint(_ response: RPCResponse?) -> Int {
        switch response?.outcome {
        case nil: 0
        case .success(let value)?: footprint(value)
        case .failure(let error)?: 16 + error.message.utf8.count + (error.data.map(footprint) ?? 0)
        }
    }

    private static func footprint(_ value: JSONValue) -> Int {
        switch value {
        case .null, .bool, .int, .double: 16
        case .string(let text): 16 + text.utf8.count
        case .array(let elements): elements.reduce(16) { $0 + footprint($1) }
        case .object(let members): members.reduce(16) { $0 + 16 + $1.key.utf8.count + footprint($1.value) }
        }
    }
}
