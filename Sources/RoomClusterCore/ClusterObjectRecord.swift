/// A shared object as the cluster holds it.
public struct ClusterObjectRecord: Sendable, Hashable {
    /// Its version.
    public var version: Int
    /// Whether it outlives its clients.
    public var persistent: Bool
    /// Each property's JSON text.
    public var properties: [String: String]

    /// Creates a record.
    public init(version: Int, persistent: Bool, properties: [String: String]) {
        self.version = version
        self.persistent = persistent
        self.properties = properties
    }
}

/// What opening a shared object found
/// (``ClusterBackplane/openObject(_:persistent:createsPersistent:maxObjects:maxBytes:)``).
public enum ClusterObjectOpening: Sendable, Hashable {
    /// The object, created when it did not exist.
    case opened(ClusterObjectRecord)
    /// It did not exist, a persistent one was asked, and the node may not create persistent objects: nothing was
    /// created.
    case persistentNotAllowed
    /// It did not exist, and one more object would pass the cluster's `maxObjects`: nothing was created.
    case tooManyObjects(limit: Int)
    /// It did not exist, and its empty data would take the cluster's objects to `bytes`, past their `maxBytes`:
    /// nothing was created.
    case tooManyBytes(bytes: Int)
}

/// What a change of a shared object did (``ClusterBackplane/setObject(_:changes:maxBytes:maxTotalBytes:sender:)``).
public enum ClusterObjectChange: Sendable, Hashable {
    /// Nothing changed; the object is at `version`.
    case unchanged(version: Int)
    /// The change is `version`; `payload` is `{"version":…,"changed":{…},"sender":…}` (also sent to the other
    /// nodes, as a ``ClusterEvent/sharedObjectUpdate`` event).
    case changed(version: Int, payload: String)
    /// Refused: the object would be `bytes` long.
    case tooLarge(bytes: Int)
    /// Refused: the cluster's objects would hold `bytes`, past their `maxBytes`.
    case tooManyBytes(bytes: Int)
    /// The cluster has no such object (it lost it: a restart with an empty dataset, or this node was presumed dead
    /// and its last clients taken away): nothing was created; register it again
    /// (``ClusterBackplane/registerObject(_:record:clients:)``) and retry.
    case missing
}
