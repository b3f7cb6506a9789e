/// What a `RoomServer` needs of a cluster, so that several server processes serve the same rooms: one node's
/// place in it. `RoomCluster`'s `ClusterNode` is the implementation on Redis; a server made without a cluster needs
/// none, and links neither `RoomCluster` nor hiredis.
///
/// A backplane is made by a ``ClusterBackplaneConfiguration`` when its server is made, started by the server's
/// `startCluster()` and stopped by its shutdown; the server reads ``events`` (one reader) from the start on.
///
/// What the server relies on:
/// - A name is claimed atomically (``claim(user:room:)``): of two nodes that claim one name at once, exactly one
///   wins, and the name stays this node's until it releases it as many times as it claimed it.
/// - ``post(_:room:user:payload:)`` queues an event synchronously (the server calls it under the lock that orders
///   its state changes), and the other nodes receive one node's events in that order, once each, as
///   ``ClusterIncoming/event(_:)``.
/// - A node that is gone (stopped renewing its liveness) is swept by a survivor, which sends
///   ``ClusterEvent/departed`` for each of its participants on its behalf.
/// - When the shared state is away, operations fail with ``ClusterError/unavailable(_:)``, events are lost and
///   ``ClusterIncoming/unavailable(_:)`` says so; when it is back and this node's participants are registered
///   again, ``ClusterIncoming/restored`` tells the server to resynchronize (``isRecovering`` is true in between).
public protocol ClusterBackplane: Sendable {
    /// This node's name, unique in the cluster.
    var nodeID: String { get }
    /// What the node hears, for one reader; it ends when the node stops.
    var events: AsyncStream<ClusterIncoming> { get }
    /// Whether the node is in an outage (from ``ClusterIncoming/unavailable(_:)`` until
    /// ``ClusterIncoming/restored``): claims and reads of the members fail meanwhile.
    var isRecovering: Bool { get }

    /// Joins the cluster: from its return on, no event another node sends is missed. On failure nothing is left
    /// running and ``events`` has ended.
    func start() async throws(ClusterError)
    /// Leaves the cluster: every participant it still holds departs (``ClusterEvent/departed`` to the other nodes)
    /// and is released, and the node stops.
    func stop() async

    // MARK: Names and members

    /// Claims `user` in `room` for this node: true when it is now this node's, false when any node holds it.
    func claim(user: String, room: String) async throws(ClusterError) -> Bool
    /// Gives up `user` in `room` (once per successful ``claim(user:room:)``).
    func release(user: String, room: String) async throws(ClusterError)
    /// Marks `user` of `room` as publishing or not (what ``members(of:)`` reports).
    func setPublishing(_ publishing: Bool, user: String, room: String) async throws(ClusterError)
    /// Every participant of `room` on every node, sorted by name; fails during an outage.
    func members(of room: String) async throws(ClusterError) -> [ClusterMember]
    /// Queues an event of `kind` about `user` of `room` for the other nodes and returns at once: events reach them in
    /// the order of these calls. False when the event is refused (its payload is too large): not sent.
    @discardableResult
    func post(_ kind: String, room: String, user: String, payload: String) -> Bool

    // MARK: Media shared by the nodes (docs/kurento.md#cluster)

    /// The pipeline another node recorded for `scope`, if any; this node is then counted as one of its users.
    func joinMedia(_ scope: String) async throws(ClusterError) -> ClusterPipelineRecord?
    /// Records `pipeline` for `scope` unless another node recorded one first; returns the one recorded (ours, or the
    /// winner's: then the caller releases ours and uses it). This node is counted as a user either way.
    func claimMedia(_ scope: String, pipeline: ClusterPipelineRecord) async throws(ClusterError)
        -> ClusterPipelineRecord
    /// This node no longer uses `scope`'s pipeline. Returns the pipeline when no live node uses it any more: the
    /// caller releases it (its records are gone already).
    func leaveMedia(_ scope: String) async throws(ClusterError) -> ClusterPipelineRecord?
    /// Forgets `scope`'s pipeline record if it is still `id` (the media server no longer has that pipeline).
    func forgetMedia(_ scope: String, pipeline id: String) async throws(ClusterError)
    /// Records the media server's id of `user`'s publisher endpoint in `scope`.
    func setPublisherEndpoint(_ id: String, user: String, scope: String) async throws(ClusterError)
    /// The media server's id of `user`'s publisher endpoint in `scope`, if a node recorded one.
    func publisherEndpoint(user: String, scope: String) async throws(ClusterError) -> String?
    /// Removes `user`'s publisher endpoint record if it is still `id`.
    func removePublisherEndpoint(_ id: String, user: String, scope: String) async throws(ClusterError)

    // MARK: Shared objects sequenced by the cluster

    /// The object's record. When the cluster has none it is created empty at version 0 and counted, unless a
    /// persistent one is asked and `createsPersistent` is false, or it would pass `maxObjects` or `maxBytes`
    /// (`nil`: no limit): then nothing is created.
    func openObject(_ name: String, persistent: Bool, createsPersistent: Bool, maxObjects: Int?, maxBytes: Int?)
        async throws(ClusterError) -> ClusterObjectOpening
    /// Registers this node's copy of `name` again after the cluster lost it, with `clients` clients on this node
    /// (set, not added); returns what the cluster holds afterwards (newer than `record` when another node's was).
    func registerObject(_ name: String, record: ClusterObjectRecord, clients: Int) async throws(ClusterError)
        -> ClusterObjectRecord
    /// Applies `changes` (each key's new JSON text, `nil` to remove it) to `name` in one step, refused when the
    /// object would be larger than `maxBytes` or all objects larger than `maxTotalBytes` (`nil`: no limit); a change
    /// goes to the other nodes as a ``ClusterEvent/sharedObjectUpdate`` event, with `sender` (JSON text) in it.
    func setObject(_ name: String, changes: [(key: String, text: String?)], maxBytes: Int, maxTotalBytes: Int?,
                   sender: String?) async throws(ClusterError) -> ClusterObjectChange
    /// One more or one fewer client of `name` on this node; a non-persistent object without clients is forgotten.
    /// Returns at once; applied in call order.
    func countObjectClients(_ name: String, delta: Int)

    // MARK: The operations view

    /// A store of the nodes' operations snapshots, for the server's view of the whole cluster.
    func makeSnapshotStore() -> any ClusterSnapshotStore
}
