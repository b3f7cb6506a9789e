import Logging
import SignalingSupport

/// One session's ping watchdog (docs/wire-protocol.md#heartbeat): armed by the first `ping` (or when `connect` re-binds
/// a session that had pinged), pushed back by each later one.
///
/// A ping only moves ``deadline``; the timer is left alone. When it fires before the deadline it arms itself again for
/// the rest, so a client pinging every 5 s costs one timer per 3 intervals instead of a cancel and a new timer per
/// ping (with 10,000 clients, 2,000 of each per second: 7 % of an idle server's CPU).
struct PingWatchdog {
    /// The client's declared interval, clamped; `nil` until the first ping.
    var interval: Duration?
    /// The last ping plus 3 × ``interval``: past it, the session is silent.
    var deadline: ClockInstant?
    var timer: (any TimerHandle)?
    /// When ``timer`` fires (never after ``deadline``), and for which connection.
    var firesAt: ClockInstant?
    var binding: ConnectionBinding?
}

extension JSONRPCServer {
    /// A `ping` arrived on `binding`: take its `interval` (clamped to ``Configuration/pingIntervalLimits``) and
    /// push the watchdog's deadline to 3 × that interval from now.
    func pinged(_ session: ServerSession, binding: ConnectionBinding, params: JSONValue?) {
        let declared = params?["interval"]?.intValue.map { Duration.milliseconds($0) }
        let limits = configuration.pingIntervalLimits
        let now = configuration.clock.now
        let extended = session.withWatchdog { w in
            if let declared {
                w.interval = min(max(declared, limits.lowerBound), limits.upperBound)
            } else if w.interval == nil {
                w.interval = min(max(configuration.defaultPingInterval, limits.lowerBound), limits.upperBound)
            }
            guard let interval = w.interval, w.timer != nil, w.binding === binding,
                  let firesAt = w.firesAt, firesAt <= now + interval * 3 else { return false }
            w.deadline = now + interval * 3
            return true
        }
        if !extended { rearmWatchdog(session, binding: binding) }
    }

    /// Re-arms the watchdog of a session that has pinged before (after a ping, or a `connect` re-bind): its deadline
    /// is 3 × the interval from now.
    func rearmWatchdog(_ session: ServerSession, binding: ConnectionBinding) {
        let now = configuration.clock.now
        guard let interval = session.withWatchdog({ $0.interval }) else { return }
        arm(session, binding: binding, deadline: now + interval * 3, now: now)
    }

    /// Sets the deadline and a timer that fires at it, in place of any earlier timer. With `ifUnarmed` (the timer's
    /// own re-arm) it is set only if nothing armed or disarmed the watchdog since: a ping that found no timer armed
    /// one itself, and a disarm clears the binding.
    private func arm(_ session: ServerSession, binding: ConnectionBinding, deadline: ClockInstant, now: ClockInstant,
                     ifUnarmed: Bool = false) {
        let timer = configuration.clock.schedule(after: deadline - now) { [weak self, weak session] in
            guard let self, let session else { return }
            self.watchdogTimerFired(session, binding: binding)
        }
        session.withWatchdog { w -> (any TimerHandle)? in
            if ifUnarmed, w.timer != nil || w.binding !== binding { return timer }
            defer { (w.timer, w.firesAt, w.binding) = (timer, deadline, binding) }
            if !ifUnarmed { w.deadline = deadline }
            return w.timer
        }?.cancel()
    }

    /// The timer fired: pings since it was set moved the deadline later, so it waits for the rest; otherwise the
    /// session has been silent for 3 intervals.
    private func watchdogTimerFired(_ session: ServerSession, binding: ConnectionBinding) {
        let now = configuration.clock.now
        enum Next { case stale, wait(ClockInstant), fire(Duration) }
        let next: Next = session.withWatchdog { w in
            guard w.binding === binding, w.timer != nil, let deadline = w.deadline, let interval = w.interval
            else { return .stale }
            (w.timer, w.firesAt) = (nil, nil)
            if deadline > now { return .wait(deadline) }
            w.deadline = nil
            return .fire(interval)
        }
        switch next {
        case .stale: return
        case .wait(let deadline): arm(session, binding: binding, deadline: deadline, now: now, ifUnarmed: true)
        case .fire(let interval): watchdogFired(session, binding: binding, interval: interval)
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
