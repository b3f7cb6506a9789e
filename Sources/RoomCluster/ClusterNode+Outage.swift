import CoreMetrics
import RoomClusterCore
import SignalingSupport

/// Outages: Redis lost (by the subscription or any connection), or events of this node lost. One outage is
/// reported once (``/RoomClusterCore/ClusterIncoming/unavailable(_:)``) and ends once
/// (``/RoomClusterCore/ClusterIncoming/restored``), when the subscription is up again, every connection reaches Redis
/// and registering again succeeded.
extension ClusterNode {
    /// The least and the most time between two attempts to end an outage.
    static let recoveryBackoff: (first: Duration, most: Duration) = (.milliseconds(200), .seconds(2))

    /// Starts an outage unless one is on: every connection fails fast from now on, the server hears
    /// ``/RoomClusterCore/ClusterIncoming/unavailable(_:)``, and a recovery task tries to end it.
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
    /// registers again, then reports ``/RoomClusterCore/ClusterIncoming/restored``; retried with a growing delay. An
    /// attempt counts only if the subscription it began with stayed up throughout: one lost and made again meanwhile
    /// means Redis went away (maybe restarted empty) after the registration, which then has to be made again.
    private func recover() async {
        var delay = Self.recoveryBackoff.first
        // What the attempts so far found (a registration took them out of what the node holds, so a later attempt
        // does not find them again): reported once the outage ends.
        var found = Registration()
        while !Task.isCancelled {
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled, let subscription = state.withLock({ $0.subscribed ? $0.subscriptions : nil })
            else { continue }
            do throws(RedisError) {
                for connection in [liveness, redis, fanout] { try await connection.reconnect() }
                let registration = try await register()
                found.taken += registration.taken
                found.released += registration.released
                try await waitForKnownNodes(subscription: subscription)
            } catch {
                // A subscription made again is a fresh start (Redis came back): no need to wait longer.
                let fresh = state.withLock { $0.subscriptions != subscription }
                delay = fresh ? Self.recoveryBackoff.first : min(delay * 2, Self.recoveryBackoff.most)
                continue
            }
            let ended = state.withLock { s -> Bool in
                guard s.subscribed, s.subscriptions == subscription, !s.halted, !Task.isCancelled else { return false }
                s.outage = nil
                s.recovery = nil
                s.sweepsFrom = ContinuousClock.now + configuration.nodeTimeout
                return true
            }
            guard ended else { delay = Self.recoveryBackoff.first; continue }
            // The names of ours another node claimed meanwhile: the server removes its participants of them.
            for (room, user) in found.taken {
                continuation.yield(.event(ClusterEvent(origin: configuration.nodeID, room: room, sequence: 0,
                                                       kind: ClusterEvent.taken, user: user, payload: "")))
            }
            // The names Redis gave this node that it no longer holds: the other nodes may list them still, so the
            // server tells them they left.
            for (room, user) in found.released {
                continuation.yield(.event(ClusterEvent(origin: configuration.nodeID, room: room, sequence: 0,
                                                       kind: ClusterEvent.released, user: user, payload: "")))
            }
            continuation.yield(.restored)
            return
        }
    }

    /// Waits until every node known alive (found by the last sweep, or heard from since) has its heartbeat key again
    /// (it registered again after the outage), at most the node timeout: after Redis restarted empty, a node that
    /// reached it first would otherwise read the others' members as gone, tell its members they left, and let a join
    /// take their names. The bound is the one a heartbeat gives: a node that cannot reach Redis for a node timeout
    /// is presumed dead (as it would be with Redis intact), and its names can be claimed; counted here from when this
    /// node reached Redis again, it is longer than with Redis intact.
    /// Fails when `subscription` (the subscription the recovery began with) was lost meanwhile: the registration may
    /// have gone with the Redis that was lost.
    func waitForKnownNodes(subscription: UInt64) async throws(RedisError) {
        let expected = state.withLock { $0.knownAlive }
        guard !expected.isEmpty else { return }
        let deadline = ContinuousClock.now + configuration.nodeTimeout
        while ContinuousClock.now < deadline, !Task.isCancelled {
            guard state.withLock({ $0.subscribed && $0.subscriptions == subscription }) else {
                throw .unavailable("the subscription was lost while waiting for the other nodes to register again")
            }
            var missing = 0
            for node in expected where try await liveness.command("EXISTS", keys.node(node)) == .integer(0) {
                missing += 1
            }
            if missing == 0 { return }
            try? await Task.sleep(for: min(configuration.heartbeatInterval, .milliseconds(100)))
        }
    }
}
