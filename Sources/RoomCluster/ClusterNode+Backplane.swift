public import RoomClusterCore

/// A node on Redis is what a `RoomServer` talks to as its cluster: every requirement but these is one of the node's
/// own methods.
extension ClusterNode: ClusterBackplane {
    /// ``ClusterConfiguration/nodeID``.
    public var nodeID: String { configuration.nodeID }

    /// A ``ClusterSnapshots`` of this node, with a connection of its own.
    public func makeSnapshotStore() -> any ClusterSnapshotStore { ClusterSnapshots(node: self) }
}

extension ClusterNode: CustomStringConvertible {
    /// The node and its Redis, without the password: `node a on redis://10.0.0.5:6379/0`.
    public var description: String { "node \(configuration.nodeID) on \(configuration.redis)" }
}

/// A configuration is how a `RoomServer` joins the cluster on Redis:
/// `configuration.cluster = ClusterConfiguration(redis: url, nodeID: "a")`.
extension ClusterConfiguration: ClusterBackplaneConfiguration {
    /// A ``ClusterNode`` with this configuration, its metrics going where the server's go.
    public func makeBackplane(_ context: ClusterBackplaneContext) -> any ClusterBackplane {
        ClusterNode(configuration: self, metricsFactory: context.metricsFactory)
    }
}
