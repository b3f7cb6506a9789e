import SignalingSupport

extension ClusterNode {
    /// Renews the heartbeat key and adds the node (and, again, every participant it holds) to the cluster.
    func register() async throws(RedisError) {
        let id = configuration.nodeID
        let (owned, publishing) = state.withLock { ($0.owned, $0.publishing) }
        var commands: [[String]] = [
            ["SET", keys.node(id), "alive", "PX", String(Self.milliseconds(configuration.nodeTimeout))],
            ["SADD", keys.nodes, id],
        ]
        for (room, users) in owned {
            for user in users {
                // HSETNX: a name another node took meanwhile stays that node's.
                commands.append(["HSETNX", keys.members(room), user, id])
                commands.append(["SADD", keys.nodeMembers(id), ClusterKeys.entry(room: room, user: user)])
            }
        }
        for entry in publishing {
            guard let (room, user) = ClusterKeys.parse(entry: entry) else { continue }
            commands.append(["SADD", keys.publishers(room), user])
        }
        _ = try await liveness.transaction(commands)
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
            // than its timeout) or Redis lost it, and the survivors may have swept this node's participants.
            let renewed = try? await liveness.command(
                "SET", keys.node(id), "alive", "PX", String(Self.milliseconds(configuration.nodeTimeout)), "GET")
            guard let renewed else { continue }  // Redis is away: the subscriber reports it
            if renewed == .null, state.withLock({ $0.subscribedOnce }) {
                // Presumed dead: register every participant again and have the server announce them.
                if (try? await register()) != nil { continuation.yield(.restored) }
            }
            _ = try? await liveness.command("SADD", keys.nodes, id)
            try? await sweep()
        }
    }

    /// Removes the participants of every node whose heartbeat expired; of the survivors, exactly one sweeps each
    /// dead node (`SET sweep:<id> NX`) and sends ``ClusterEvent/departed`` for each of its participants.
    func sweep() async throws(RedisError) {
        let id = configuration.nodeID
        let nodes = (try await liveness.command("SMEMBERS", keys.nodes).array ?? []).compactMap(\.string)
        for node in nodes where node != id {
            guard try await liveness.command("EXISTS", keys.node(node)) == .integer(0) else { continue }
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
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}
