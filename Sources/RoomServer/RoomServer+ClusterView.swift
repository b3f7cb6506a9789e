import RoomClusterCore
import RoomProtocol

/// With a cluster: the operations snapshot shows every node (docs/operations.md#rooms), and ``events`` the
/// participants of other nodes in this node's rooms.
extension RoomServer {
    /// The node that holds `user` in `room`, as this node knows it now: this node's id
    /// (``/RoomClusterCore/ClusterBackplane/nodeID``) for its own participant, another node's for a participant of
    /// another node in a room that has members here, `nil` when it knows none (or without a cluster). With
    /// ``events``, which tells of the participants of every node in this node's rooms, it says whose they are.
    public func node(of user: String, in room: String) -> String? {
        guard let cluster else { return nil }
        return registry.node(of: user, in: room, local: cluster.nodeID)
    }

    /// Starts writing this node's snapshot to Redis and reading the other nodes' (``ClusterRoomsView``).
    func startClusterView() {
        guard let clusterView else { return }
        let registry = registry, media = media, node = cluster?.nodeID
        clusterView.start(local: { Self.operationsSnapshot(registry, media: media, node: node, view: nil) },
                          changed: { registry.remoteViewChanged() })
    }

    /// What another node's event says about the cluster view: one of its participants left, or it died.
    func clusterViewLearned(_ event: ClusterEvent) {
        let departed = event.kind == ClusterEvent.departed
        guard departed || event.kind == RoomNotificationMethod.participantLeft.rawValue, let clusterView else { return }
        if clusterView.note(origin: event.origin, room: event.room, user: event.user, departed: departed) {
            registry.remoteViewChanged()
        }
    }
}
