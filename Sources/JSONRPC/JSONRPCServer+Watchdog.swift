import Logging
import SignalingSupport

/// One session's ping watchdog (docs/wire-protocol.md#heartbeat): armed by the first `ping` (or when `connect` re-binds
/// a session that had pinged), re-armed by each later one.
struct PingWatchdog {
    /// The client's declared interval, clamped; `nil` until the first ping.
    var interval: Duration?
    var timer: (any TimerHandle)?
}

extension JSONRPCServer {
    /// A `ping` arrived on `binding`: take its `interval` (clamped to ``Configuration/pingIntervalLimits``) and
    /// re-arm the watchdog for 3 × that interval.
    func pinged(_ session: ServerSession, binding: ConnectionBinding, params: JSONValue?) {
        let declared = params?["interval"]?.intValue.map { Duration.milliseconds($0) }
        let limits = configuration.pingIntervalLimits
        session.withWatchdog { w in
            if let declared {
                w.interval = min(max(declared, limits.lowerBound), limits.upperBound)
            } else if w.interval == nil {
                w.interval = min(max(configuration.defaultPingInterval, limits.lowerBound), limits.upperBound)
            }
        }
        rearmWatchdog(session, binding: binding)
    }

    /// Re-arms the watchdog of a session that has pinged before (after a ping, or a `connect` re-bind).
    func rearmWatchdog(_ session: ServerSession, binding: ConnectionBinding) {
        guard let interval = session.withWatchdog({ $0.interval }) else { return }
        let timer = configuration.clock.schedule(after: interval * 3) { [weak self, weak session] in
            guard let self, let session else { return }
            self.watchdogFired(session, binding: binding, interval: interval)
        }
        session.withWatchdog { w in
            defer { w.timer = timer }
            return w.timer
        }?.cancel()
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
