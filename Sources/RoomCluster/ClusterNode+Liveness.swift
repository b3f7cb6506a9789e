import RoomClusterCore
import SignalingSupport

extension ClusterNode {
    /// What registering again found.
    struct Registration: Sendable {
        /// Names this node holds that another node claimed meanwhile (it was taken for dead, or Redis lost them and
        /// the other node claimed first): this node's participants of those names must go.
        var taken: [(room: String, user: String)] = []
        /// Names Redis gave this node that it no longer holds (a claim whose reply was lost, a release that failed
        /// during an outage, a previous process with this node id): released now.
        var released: [(room: String, user: String)] = []
    }

    /// Renews the heartbeat key and makes Redis's view of this node's participants what the node holds, in one
    /// transaction (``ClusterScripts/reconcile``): every participant it holds is claimed again (a name another node
    /// took meanwhile is reported in ``Registration/taken`` and given up here), every name Redis gives it that it
    /// no longer holds is released (``Registration/released``), and its publishers are marked again.
    @discardableResult
    func register() async throws(RedisError) -> Registration {
        let id = configuration.nodeID
        let (owned, publishing) = state.withLock { ($0.owned, $0.publishing) }
        var entries: [String] = []
        for (room, users) in owned {
            for user in users { entries.append(ClusterKeys.entry(room: room, user: user)) }
        }
        var commands: [[String]] = [
            ["SET", keys.node(id), "alive", "PX", String(Self.milliseconds(configuration.nodeTimeout))],
            ["SADD", keys.nodes, id],
            ["EVAL", ClusterScripts.reconcile, "1", keys.nodeMembers(id), id, configuration.keyPrefix] + entries,
        ]
        for entry in publishing {
            guard let (room, user) = ClusterKeys.parse(entry: entry) else { continue }
            commands.append(["SADD", keys.publishers(room), user])
        }
        let replies = try await liveness.transaction(commands)
        guard let parts = replies.array, parts.count >= 3, let lists = parts[2].array, lists.count == 2 else {
            throw .server("unexpected reply to registering the node: \(replies)")
        }
        func pairs(_ reply: RedisReply) -> [(room: String, user: String)] {
            (reply.array ?? []).compactMap(\.string).compactMap(ClusterKeys.parse(entry:))
        }
        let registration = Registration(taken: pairs(lists[0]), released: pairs(lists[1]))
        if !registration.taken.isEmpty {
            state.withLock { s in
                for (room, user) in registration.taken {
                    s.owned[room]?.remove(user)
                    if s.owned[room]?.isEmpty == true { s.owned[room] = nil }
                    let entry = ClusterKeys.entry(room: room, user: user)
                    s.holds[entry] = nil
                    s.publishing.remove(entry)
                }
            }
        }
        return registration
    }

    /// Waits for the subscriber's first confirmation, at most twice the round-trip timeout.
    func waitUntilSubscribed() async throws(RedisError) {
        let limit = configuration.timeout * 2
        let subscribed = await withCheckedContinuation { (waiter: CheckedContinuation<Bool, Never>) in
            let already = state.withLock { s -> Bool in
                if s.subscribedOnce { return true }
                s.subscribedWaiter = waiter
                return false
            }
            if already { waiter.resume(returning: true); return }
            Task {
                try? await Task.sleep(for: limit)
                let late = state.withLock { s -> CheckedContinuation<Bool, Never>? in
                    defer { s.subscribedWaiter = nil }
                    return s.subscribedWaiter
                }
                late?.resume(returning: false)
            }
        }
        if !subscribed { throw .unavailable("could not subscribe to the cluster's channels within \(limit)") }
    }

    /// Every heartbeat interval: renews the node's key and sweeps nodes whose key expired.
    func heartbeat() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: configuration.heartbeatInterval)
            if Task.isCancelled { return }
            let id = configuration.nodeID
            // GET: the key's previous value; none means it had expired (this node was stopped or cut off longer
            // than its timeout) or Redis lost it, and the survivors may have swept this node's participants. XX:
            // only registering creates the key, so a node whose key exists has registered (what a recovery waits
            // for, `waitForKnownNodes`); XX with GET needs Redis 6.2 (https://redis.io/docs/latest/commands/set/).
            let renewed = try? await liveness.command(
                "SET", keys.node(id), "alive", "PX", String(Self.milliseconds(configuration.nodeTimeout)), "XX", "GET")
            guard let renewed else { continue }  // Redis is away: the subscriber reports it
            if renewed == .null, state.withLock({ $0.subscribedOnce }) {
                // Presumed dead (or Redis lost the key): the survivors may have swept this node's participants. It
                // is an outage: registered again by the recovery, which then reports `.restored`.
                beginOutage("this node was taken for dead (its heartbeat key was gone)")
                continue
            }
            _ = try? await liveness.command("SADD", keys.nodes, id)
            let sweeps = state.withLock { s in s.outage == nil && (s.sweepsFrom.map { ContinuousClock.now >= $0 } ?? true) }
            if sweeps { try? await sweep() }
        }
    }

    /// Removes the participants of every node whose heartbeat expired; of the survivors, exactly one sweeps each
    /// dead node (`SET sweep:<id> NX`) and sends ``/RoomClusterCore/ClusterEvent/departed`` for each of its
    /// participants.
    func sweep() async throws(RedisError) {
        let id = configuration.nodeID
        let nodes = (try await liveness.command("SMEMBERS", keys.nodes).array ?? []).compactMap(\.string)
        var alive: Set<String> = []
        for node in nodes where node != id {
            guard try await liveness.command("EXISTS", keys.node(node)) == .integer(0) else {
                alive.insert(node)
                continue
            }
            let won = try await liveness.command(
                "SET", keys.sweep(node), id, "NX", "PX", String(Self.milliseconds(configuration.nodeTimeout * 2)))
            guard won == .status("OK") else { continue }
            let entries = (try await liveness.command("SMEMBERS", keys.nodeMembers(node)).array ?? []).compactMap(\.string)
            for entry in entries {
                guard let (room, user) = ClusterKeys.parse(entry: entry) else { continue }
                let removed = try await liveness.command([
                    "EVAL", ClusterScripts.release, "3", keys.members(room), keys.publishers(room),
                    keys.nodeMembers(node), user, node, entry,
                ])
                guard removed == .integer(1) else { continue }
                let event = ClusterEvent(origin: node, room: room, sequence: 0, kind: ClusterEvent.departed, user: user,
                                         payload: "")
                _ = try await liveness.command("PUBLISH", keys.channel(room), event.wireText)
            }
            try await forgetObjectClients(of: node)
            _ = try await liveness.transaction([["DEL", keys.nodeMembers(node)], ["SREM", keys.nodes, node]])
        }
        // Only a sweep that read every node of a Redis that still lists this one says who is alive: one cut short by
        // an outage, or one that read a Redis restarted empty, keeps the last answer.
        if nodes.contains(id) { state.withLock { $0.knownAlive = alive } }
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}
