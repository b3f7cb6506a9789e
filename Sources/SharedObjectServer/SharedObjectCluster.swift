public import JSONRPC
public import SharedObjects

/// Where the objects of a ``SharedObjectService`` are sequenced when several servers (the nodes of a room-server
/// cluster) serve the same objects: each change gets its version there, atomically, and reaches every other server
/// (``SharedObjectService/deliverFromCluster(update:)``). Without one (the default), the service sequences its
/// objects itself, in memory.
///
/// The cluster also keeps the ``SharedObjectQuotas`` for all its servers: it counts the objects it holds and the
/// bytes of their data, and refuses with ``SharedObjectRefusal``.
public protocol SharedObjectCluster: Sendable {
    /// The object's state across the cluster. When it has none, it is created empty at version 0 (`persistent` as
    /// asked) and counted, unless a persistent one is asked and `createsPersistent` is false
    /// (``SharedObjectRefusal/persistentNotAllowed``) or one more object would pass `quotas`
    /// (``SharedObjectRefusal/tooManyObjects(limit:)``): then nothing is created.
    func open(_ name: String, persistent: Bool, createsPersistent: Bool, quotas: SharedObjectQuotas) async throws
        -> SharedObjectState
    /// Applies `properties` (`null` removes a key) to `name` in one step: the update (its version, the keys
    /// whose value changed, and `sender`), sent to the other servers too; `nil` when nothing changed. Throws
    /// ``SharedObjectClusterTooLarge`` when the object would exceed `maxBytes`, and
    /// ``SharedObjectRefusal/tooManyBytes(bytes:limit:)`` when all objects would exceed `quotas`.
    func set(_ name: String, properties: [String: JSONValue], maxBytes: Int, quotas: SharedObjectQuotas,
             sender: SharedObjectSender?) async throws -> SharedObjectUpdate?
    /// Sends `message` (with its sender) to the other servers (this one delivers it itself); returns at once, in
    /// call order.
    func post(_ message: SharedObjectMessage)
    /// One more (`delta` 1) or one fewer (-1) client of `name` on this server; a non-persistent object without
    /// clients anywhere is forgotten (and no longer counted). Returns at once, in call order.
    func count(_ name: String, delta: Int)
    /// Registers this server's copy of `object` again, with its `clients` here, after the cluster lost it (its
    /// store restarted empty, or this server was presumed dead): created from the copy when the cluster has none
    /// (its version, so that the next change follows it; never refused by the quotas: it was within them), the
    /// copy's data kept when the cluster's are older, the cluster's kept when newer; this server's clients set to
    /// `clients`, not added, so that registering twice counts them once. Returns the cluster's state afterwards
    /// (version 0 when a non-persistent object was forgotten for want of clients). ``set(_:properties:maxBytes:quotas:sender:)``
    /// of an object the cluster lost throws ``SharedObjectClusterMissing``. The default does nothing and returns
    /// `object`: for a cluster that never loses its objects.
    func register(_ object: SharedObjectState, clients: Int) async throws -> SharedObjectState
}

extension SharedObjectCluster {
    /// Returns `object`: the cluster never loses its objects (see ``SharedObjectCluster/register(_:clients:)``).
    public func register(_ object: SharedObjectState, clients: Int) async throws -> SharedObjectState { object }
}

/// The cluster has lost the object a change was for (see ``SharedObjectCluster/register(_:clients:)``): nothing was
/// changed.
public struct SharedObjectClusterMissing: Error, Sendable {
    /// Creates the error.
    public init() {}
}

/// The cluster refused a change that would make the object larger than its limit.
public struct SharedObjectClusterTooLarge: Error, Sendable {
    /// The size the object would have had, in bytes (as the cluster counts them).
    public var bytes: Int
    /// Creates the refusal.
    public init(bytes: Int) { self.bytes = bytes }
}
