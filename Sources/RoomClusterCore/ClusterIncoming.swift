/// What a node of the cluster hears (``ClusterBackplane/events``).
public enum ClusterIncoming: Sendable, Hashable {
    /// An event of another node (or a dead node's departure), in that node's order.
    case event(ClusterEvent)
    /// The cluster's shared state is gone, or events of this node could not be sent: events are lost, both ways,
    /// until ``restored``.
    case unavailable(String)
    /// The cluster is back, or this node was presumed dead and is back, and its participants are registered again:
    /// the server announces them again (events sent meanwhile were lost) and re-reads the remote members. After an
    /// ``unavailable(_:)`` it comes once registering again succeeded, never before.
    case restored
}
