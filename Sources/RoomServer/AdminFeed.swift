import JSONRPC
import SignalingSupport

/// The `/admin` subscription's side of the server (docs/operations.md#admin-subscription): the admin sessions that sent
/// `subscribeRooms`, and the coalescing of registry changes into `roomsChanged` notifications.
///
/// A change (``changed()``, fired under the registry's lock) arms one timer of
/// ``OperationsConfiguration/snapshotInterval`` if none is armed and anyone listens; when it fires, one fresh
/// snapshot goes to every subscriber. So a burst of joins sends one snapshot per interval at most, and an idle server
/// sends nothing but, with a refresh interval, one snapshot per refresh interval when nothing changed (so outbox
/// depths and round-trip times stay current). Each subscriber's notifications
/// go through its own ``SessionOutbox`` (never waiting for its socket, docs/architecture.md#backpressure): one that
/// falls ``queueLimit`` snapshots behind is closed with 1008.
final class AdminFeed: Sendable {
    /// The JSON-RPC notification that carries a fresh snapshot.
    static let notification = "roomsChanged"
    /// Unwritten snapshots one subscriber may have before it is closed.
    static let queueLimit = 16

    private struct State {
        /// By session (the id never leaves the server).
        var subscribers: [String: SessionOutbox] = [:]
        var armed = false
        var stopped = false
        /// Counts publications: a refresh timer armed before the latest one has nothing to do.
        var publications: UInt64 = 0
    }

    private let state = LockedValue(State())
    private let interval: Duration
    private let refresh: Duration?
    private let clock: any SignalingClock
    private let snapshot: @Sendable () -> OperationsSnapshot

    init(interval: Duration, refresh: Duration?, clock: any SignalingClock,
         snapshot: @escaping @Sendable () -> OperationsSnapshot) {
        self.interval = interval
        self.refresh = refresh
        self.clock = clock
        self.snapshot = snapshot
    }

    /// Adds `session` as a subscriber (again: nothing changes) and returns the snapshot its `subscribeRooms` answers.
    func subscribe(_ session: ServerSession) -> OperationsSnapshot {
        let first = state.withLock { s -> Bool in
            guard !s.stopped, s.subscribers[session.id] == nil else { return false }
            s.subscribers[session.id] = SessionOutbox(session: session, limit: Self.queueLimit,
                                                      whileDisconnected: .drop) { session in
                await session.end(code: 1008, reason: "too many unsent snapshots")
            }
            return s.subscribers.count == 1
        }
        if first { armRefresh() }
        return snapshot()
    }

    /// Removes `session` (`unsubscribeRooms`, or its connection ended); returns whether it was subscribed.
    @discardableResult
    func unsubscribe(_ session: ServerSession) -> Bool {
        state.withLock { $0.subscribers.removeValue(forKey: session.id) != nil }
    }

    /// The number of subscribers.
    var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// The rooms changed: arms the timer unless it is armed or nobody listens. Called under the registry's lock, so
    /// it only marks; the snapshot is taken when the timer fires, in a task of its own.
    func changed() {
        let arm = state.withLock { s -> Bool in
            guard !s.stopped, !s.armed, !s.subscribers.isEmpty else { return false }
            s.armed = true
            return true
        }
        guard arm else { return }
        clock.schedule(after: interval) { [weak self] in
            Task { self?.publish() }
        }
    }

    /// Arms the refresh, then sends one fresh snapshot to every subscriber (`changed`: the change timer fired).
    private func publish(changed: Bool = true) {
        let subscribers = state.withLock { s -> [SessionOutbox] in
            if changed { s.armed = false }
            s.publications &+= 1
            return s.stopped ? [] : Array(s.subscribers.values)
        }
        guard !subscribers.isEmpty else { return }
        // Armed before the snapshot goes out, so whoever has seen it finds the next refresh already counting from
        // this publication (armed after, a clock that moved on in between pushed it a whole interval later).
        armRefresh()
        if let params = try? JSONValue(encoding: snapshot()) {
            let note = EncodedNotification(method: Self.notification, params: params)
            for outbox in subscribers {
                outbox.enqueue(note)
                outbox.flush()
            }
        }
    }

    /// Arms the refresh timer (``OperationsConfiguration/snapshotRefresh``): if nothing was published when it fires
    /// and anyone listens, one snapshot goes out anyway.
    private func armRefresh() {
        guard let refresh else { return }
        let publications = state.withLock { $0.publications }
        clock.schedule(after: refresh) { [weak self] in
            guard let self else { return }
            let due = self.state.withLock { s in
                !s.stopped && !s.subscribers.isEmpty && s.publications == publications
            }
            if due { Task { self.publish(changed: false) } }
        }
    }

    /// Stops for good (the server shuts down): no more snapshots.
    func stop() {
        state.withLock { s in
            s.stopped = true
            s.subscribers = [:]
        }
    }
}
