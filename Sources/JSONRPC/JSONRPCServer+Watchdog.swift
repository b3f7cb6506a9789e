import Logging
import SignalingSupport

/// One session's ping watchdog (docs/wire-protocol.md#heartbeat): armed by the first `ping` (or when `connect` re-binds
/// a session that had pinged), pushed back by each later one. A ping only moves ``deadline``; the server's
/// ``WatchdogSweep`` finds the sessions past theirs.
struct PingWatchdog {
    /// The client's declared interval, clamped; `nil` until the first ping.
    var interval: Duration?
    /// The last ping (or re-bind) plus 3 × ``interval``: past it, the session is silent. `nil`: not armed.
    var deadline: ClockInstant?
    /// The connection the deadline is for.
    var binding: ConnectionBinding?
    /// The ``WatchdogSweep`` slot the session sits in (a slot of a deadline at or after ``deadline``); `nil`: in none.
    var slot: Int64?

    /// Disarms it (the session was unbound or ended): the sweep lets the session go when it comes to its slot.
    mutating func disarm() { (deadline, binding) = (nil, nil) }
}

/// Every session's ping watchdog on one timer of the server (docs/architecture.md#server-sessions): a sweep every
/// second while any session is armed, so a watchdog fires never early and at most a second late.
///
/// Sessions sit in slots, one per second of the deadline they had when they were put there, and a sweep looks only
/// at the slots due: a session whose pings moved its deadline on goes to a later slot then. So a client pinging
/// every 5 s costs one look every 15 s, not one per sweep. (Shares of an idle 10,000-client server's CPU time: a
/// timer per session, a cancel and a new timer per ping, 7 %; a sweep over every session each second, 4.5 %; the
/// slots, 0.2 %.)
final class WatchdogSweep: Sendable {
    /// The time between sweeps.
    static let period = Duration.seconds(1)

    private struct State {
        /// By slot. Held strongly (a weak reference would move each session's reference counts to a side table,
        /// slowing every retain and release of it), until the session's slot comes or it ends (``forget(_:)``); a
        /// session's entry in a slot other than its ``PingWatchdog/slot`` is stale and skipped.
        var slots: [Int64: [ServerSession]] = [:]
        var timer: (any TimerHandle)?
    }
    private let state = LockedValue(State())

    /// The slot of `deadline`: its second, rounded up.
    static func slot(of deadline: ClockInstant) -> Int64 {
        let (seconds, attoseconds) = deadline.offset.components
        return seconds + (attoseconds > 0 ? 1 : 0)
    }

    /// Puts `session` in `slot` (which its ``PingWatchdog/slot`` now names); arms the sweep with `schedule` if idle.
    func watch(_ session: ServerSession, slot: Int64, schedule: () -> any TimerHandle) {
        state.withLock { s in
            s.slots[slot, default: []].append(session)
            if s.timer == nil { s.timer = schedule() }
        }
    }

    /// Lets go of `session` at once (it ended: ``ServerSession/terminate()`` disarmed it), rather than at its slot, so
    /// that an ended session is not kept for up to three intervals.
    func forget(_ session: ServerSession) {
        guard let slot = session.withWatchdog({ w -> Int64? in
            defer { w.slot = nil }
            return w.slot
        }) else { return }
        state.withLock { s in
            s.slots[slot]?.removeAll { $0 === session }
            if s.slots[slot]?.isEmpty == true { s.slots[slot] = nil }
        }
    }

    /// One sweep at `now`: looks at the slots up to `now`'s second (rounded up). Takes the sessions past their
    /// deadline out (disarmed) and returns them with the connection and interval the deadline was for; moves those
    /// whose deadline moved on to its slot; drops disarmed (unbound or ended) sessions. Re-arms with `schedule`
    /// while any slot is left. Under the sweep's lock, then each session's, never the other way round.
    func sweep(at now: ClockInstant, schedule: () -> any TimerHandle)
        -> [(session: ServerSession, binding: ConnectionBinding, interval: Duration)] {
        state.withLock { s in
            var silent: [(session: ServerSession, binding: ConnectionBinding, interval: Duration)] = []
            let horizon = Self.slot(of: now)
            for key in s.slots.keys where key <= horizon {
                for session in s.slots.removeValue(forKey: key) ?? [] {
                    let moved = session.withWatchdog { w -> Int64? in
                        guard w.slot == key else { return nil }  // stale: the session sits in another slot
                        guard let deadline = w.deadline, let binding = w.binding, let interval = w.interval else {
                            w.slot = nil
                            return nil
                        }
                        guard deadline <= now else {
                            w.slot = Self.slot(of: deadline)
                            return w.slot
                        }
                        (w.deadline, w.slot) = (nil, nil)
                        silent.append((session, binding, interval))
                        return nil
                    }
                    if let moved { s.slots[moved, default: []].append(session) }
                }
            }
            s.timer = s.slots.isEmpty ? nil : schedule()
            return silent
        }
    }
}

extension JSONRPCServer {
    /// A `ping` arrived on `binding`: take its `interval` (clamped to ``Configuration/pingIntervalLimits``) and
    /// move the watchdog's deadline to 3 × that interval from now.
    func pinged(_ session: ServerSession, binding: ConnectionBinding, params: JSONValue?) {
        let declared = params?["interval"]?.intValue.map { Duration.milliseconds($0) }
        let limits = configuration.pingIntervalLimits
        let fallback = configuration.defaultPingInterval
        arm(session, binding: binding) { interval in
            if let declared {
                interval = min(max(declared, limits.lowerBound), limits.upperBound)
            } else if interval == nil {
                interval = min(max(fallback, limits.lowerBound), limits.upperBound)
            }
        }
    }

    /// Re-arms the watchdog of a session that has pinged before, for its new connection (a `connect` re-bind).
    func rearmWatchdog(_ session: ServerSession, binding: ConnectionBinding) {
        arm(session, binding: binding) { _ in }
    }

    /// Sets the deadline to 3 × the interval (as `update` leaves it; none: not armed) from now, for `binding`, and
    /// puts the session in the sweep's slot of it unless it sits in one that comes no later.
    private func arm(_ session: ServerSession, binding: ConnectionBinding, update: (inout Duration?) -> Void) {
        let now = configuration.clock.now
        let slot = session.withWatchdog { w -> Int64? in
            update(&w.interval)
            guard let interval = w.interval else { return nil }
            let deadline = now + interval * 3
            (w.deadline, w.binding) = (deadline, binding)
            // In a slot at or before the new deadline it is found in time (a later deadline moves it on then);
            // an earlier deadline (a shorter interval declared) needs an earlier slot.
            let earliest = WatchdogSweep.slot(of: deadline)
            if let current = w.slot, current <= earliest { return nil }
            w.slot = earliest
            return earliest
        }
        if let slot { watchdogs.watch(session, slot: slot, schedule: scheduleWatchdogSweep) }
    }

    private func scheduleWatchdogSweep() -> any TimerHandle {
        configuration.clock.schedule(after: WatchdogSweep.period) { [weak self] in self?.sweepWatchdogs() }
    }

    private func sweepWatchdogs() {
        for (session, binding, interval) in watchdogs.sweep(at: configuration.clock.now, schedule: scheduleWatchdogSweep) {
            watchdogFired(session, binding: binding, interval: interval)
        }
    }

    /// A silent session is treated like a dropped socket: the reconnection window starts at once and the socket
    /// is closed (docs/architecture.md#server-sessions).
    private func watchdogFired(_ session: ServerSession, binding: ConnectionBinding, interval: Duration) {
        let end = ConnectionEnd(code: 1001, reason: "no ping within 3 × \(interval)")
        let detached = session.detach(binding, end: end, window: configuration.reconnectionWindow,
                                      clock: configuration.clock) { [weak self, weak session] in
            guard let self, let session else { return }
            self.endSession(session)
        }
        guard detached else { return }
        metrics?.closed(.pingTimeout)
        logger.info("ping watchdog fired", metadata: ["session": .string(session.redactedID), "interval": "\(interval)"])
        Task { await binding.connection.close(code: end.code, reason: end.reason) }
    }
}
