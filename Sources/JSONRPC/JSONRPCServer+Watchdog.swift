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
    /// Whether the session is in the server's ``WatchdogSweep``.
    var swept = false
}

/// Every session's ping watchdog on one timer of the server (docs/architecture.md#server-sessions): a sweep every
/// ``period`` while any session is armed, so a watchdog fires at most one period after its deadline and never
/// before. A timer per session cost a cancel and a new timer per ping, or a thread wake per re-arm: with 10,000
/// clients pinging every 5 s, 7–9 % of an idle server's CPU; the sweep costs one lock per armed session a second.
final class WatchdogSweep: Sendable {
    /// The time between sweeps.
    static let period = Duration.seconds(1)

    private struct State {
        /// Held strongly (a weak reference would move each session's reference counts to a side table, slowing every
        /// retain and release of it): a session leaves at the first sweep after it is disarmed, ended or silent.
        var sessions: [ObjectIdentifier: ServerSession] = [:]
        var timer: (any TimerHandle)?
    }
    private let state = LockedValue(State())

    /// Adds `session` (whose ``PingWatchdog/swept`` was just set); arms the sweep with `schedule` if it is idle.
    func watch(_ session: ServerSession, schedule: () -> any TimerHandle) {
        state.withLock { s in
            s.sessions[ObjectIdentifier(session)] = session
            if s.timer == nil { s.timer = schedule() }
        }
    }

    /// One sweep at `now`: takes the sessions past their deadline out (disarmed) and returns them with the
    /// connection and interval the deadline was for; drops disarmed (unbound or ended) sessions. Re-arms with `schedule`
    /// while any session is left. Under the sweep's lock, then each session's, never the other way round.
    func sweep(at now: ClockInstant, schedule: () -> any TimerHandle)
        -> [(session: ServerSession, binding: ConnectionBinding, interval: Duration)] {
        state.withLock { s in
            var silent: [(session: ServerSession, binding: ConnectionBinding, interval: Duration)] = []
            var leaving: [ObjectIdentifier] = []
            for (key, session) in s.sessions {
                let kept = session.withWatchdog { w in
                    guard let deadline = w.deadline, let binding = w.binding, let interval = w.interval else {
                        w.swept = false
                        return false
                    }
                    guard deadline <= now else { return true }
                    (w.deadline, w.swept) = (nil, false)
                    silent.append((session, binding, interval))
                    return false
                }
                if !kept { leaving.append(key) }
            }
            for key in leaving { s.sessions[key] = nil }
            s.timer = s.sessions.isEmpty ? nil : schedule()
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
    /// puts the session in the sweep if it is not there.
    private func arm(_ session: ServerSession, binding: ConnectionBinding, update: (inout Duration?) -> Void) {
        let now = configuration.clock.now
        let added = session.withWatchdog { w -> Bool in
            update(&w.interval)
            guard let interval = w.interval else { return false }
            (w.deadline, w.binding) = (now + interval * 3, binding)
            defer { w.swept = true }
            return !w.swept
        }
        if added { watchdogs.watch(session, schedule: scheduleWatchdogSweep) }
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
