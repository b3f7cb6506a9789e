/// Each node's operations snapshot, kept where every node can read it, so that every node can show the whole
/// cluster (docs/operations.md#rooms). The text is the server's (the Room server writes its `OperationsSnapshot` as
/// JSON); the store only keeps and reads it. A store made by ``ClusterBackplane/makeSnapshotStore()`` is the room
/// server's alone: it may hold a connection of its own.
public protocol ClusterSnapshotStore: Sendable {
    /// How often the server writes its snapshot (when it changed) and reads the others'.
    var interval: Duration { get }
    /// How long a written snapshot is kept unless written again: the server writes an unchanged one again once half
    /// of it has passed.
    var lifetime: Duration { get }
    /// Writes this node's snapshot, kept for ``lifetime``.
    func write(_ text: String) async throws(ClusterError)
    /// The snapshot of every other node that is alive now, by node.
    func others() async throws(ClusterError) -> [String: String]
    /// Removes this node's snapshot (it leaves the cluster) and lets go of what the store holds.
    func remove() async
}
