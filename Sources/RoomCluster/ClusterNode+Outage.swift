import CoreMetrics
import SignalingSupport

/// Outages: Redis lost (by the subscription or any connection), or events of this node lost. One outage is
/// reported once (``ClusterNode/Incoming/unavailable(_:)``) and ends once (``ClusterNode/Incoming/restored``), when
/// the subscription is up again, every connection reaches Redis and registering again succeeded.
extension ClusterNode {
    /// The least and the most time between two attempts to end an outage.
    static let recoveryBackoff: (first: Duration, most: Duration) = (.milliseconds(200), .seconds(2))

    /// Starts an outage unless one is on: every connection fails fast from now on, the server hears
    /// ``Incoming/unavailable(_:)``, and a recovery task tries to end it.
    func beginOutage(_ reason: String) {
        let begun = state.withLock { s -> Bool in
            guard !s.halted, s.outage == nil else { return false }
            s.outage = reason
            return true
        }
        guard begun else { return }
        for connection in [redis, fanout, liveness] { connection.lose(reason) }
        metrics?.outages.increment()
        continuation.yield(.unavailable(reason))
        let recovery = Task { [weak self] in
            guard let self else { return }
            await self.recover()
        }
        state.withLock { s in
            s.recovery?.cancel()
            s.recovery = recovery
        }
    }

    /// Until the outage ends (or the node stops): once the subscription is up, reaches Redis on every connection and
    /// registers again, then reports ``Incoming/restored``; retried with a growing delay.
    private func recover() async {
        var delay = Self.recoveryBackoff.first
        while !Task.isCancelled {
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled, state.withLock({ $0.subscribed }) else { continue }
            do throws(RedisError) {
                for connection in [liveness, redis, fanout] { try await connection.reconnect() }
                try await register()
            } catch {
                delay = min(delay * 2, Self.recoveryBackoff.most)
                continue
            }
            let ended = state.withLock { s -> Bool in
                guard s.subscribed, !s.halted, !Task.isCancelled else { return false }
                s.outage = nil
                s.recovery = nil
                return true
            }
            guard ended else { continue }
            continuation.yield(.restored)
            return
        }
    }
}
