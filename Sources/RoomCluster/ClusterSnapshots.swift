public import RoomClusterCore

/// Each node's operations snapshot in the cluster's Redis, so that every node can show the whole cluster
/// (docs/operations.md#rooms): a node writes its own as the string `snapshot:<node>`, which expires after
/// ``ClusterConfiguration/nodeTimeout`` unless written again, and reads those of the other live nodes.
///
/// The text is the server's (the Room server writes its `OperationsSnapshot` as JSON); this type only
/// stores and reads it. It has a connection of its own, so that a large snapshot never waits behind chat events or
/// delays a heartbeat.
public final class ClusterSnapshots: ClusterSnapshotStore {
    /// The node whose snapshot this writes.
    public let node: ClusterNode
    private let redis: RedisConnection

    /// The snapshots of `node`'s cluster.
    public init(node: ClusterNode) {
        self.node = node
        redis = RedisConnection(url: node.configuration.redis, timeout: node.configuration.timeout,
                                roundTrip: node.metrics?.roundTrip)
    }

    /// ``ClusterConfiguration/heartbeatInterval``: the server writes and reads as often as the node beats.
    public var interval: Duration { node.configuration.heartbeatInterval }

    /// ``ClusterConfiguration/nodeTimeout``: a snapshot lives as long as a heartbeat.
    public var lifetime: Duration { node.configuration.nodeTimeout }

    /// Writes this node's snapshot, kept for ``ClusterConfiguration/nodeTimeout`` (`SET … PX`: the key expires
    /// then, https://redis.io/docs/latest/commands/set/).
    public func write(_ text: String) async throws(RedisError) {
        let configuration = node.configuration
        _ = try await redis.command(["SET", node.keys.snapshot(configuration.nodeID), text, "PX",
                                     String(ClusterNode.milliseconds(configuration.nodeTimeout))])
    }

    /// The snapshot of every other node that is alive now (its heartbeat key exists), by node. A dead node's is
    /// left out from the moment its heartbeat key expired, before any survivor sweeps it; a node that left
    /// (``ClusterNode/stop()``) is no longer in the cluster's set of nodes.
    public func others() async throws(RedisError) -> [String: String] {
        let keys = node.keys, me = node.configuration.nodeID
        let nodes = (try await redis.command("SMEMBERS", keys.nodes).array ?? []).compactMap(\.string)
            .filter { $0 != me }.sorted()
        guard !nodes.isEmpty else { return [:] }
        // One transaction: each node's heartbeat and snapshot are read at one instant (MULTI/EXEC runs the commands
        // in order with no other client's in between, https://redis.io/docs/latest/develop/interact/transactions/).
        let replies = try await redis.transaction(nodes.flatMap { [["EXISTS", keys.node($0)], ["GET", keys.snapshot($0)]] })
        let parts = replies.array ?? []
        var snapshots: [String: String] = [:]
        for (index, id) in nodes.enumerated() where 2 * index + 1 < parts.count {
            guard parts[2 * index] == .integer(1), let text = parts[2 * index + 1].string else { continue }
            snapshots[id] = text
        }
        return snapshots
    }

    /// Removes this node's snapshot (it leaves the cluster) and closes the connection.
    public func remove() async {
        _ = try? await redis.command("DEL", node.keys.snapshot(node.configuration.nodeID))
        await redis.close()
    }
}

extension ClusterKeys {
    /// A node's operations snapshot (``ClusterSnapshots``).
    func snapshot(_ id: String) -> String { prefix + "snapshot:" + id }
}
