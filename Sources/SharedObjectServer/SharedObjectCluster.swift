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
}

/// The cluster refused a change that would make the object larger than its limit.
public struct SharedObjectClusterTooLarge: Error, Sendable {
    /// The size the object would have had, in bytes (as the cluster counts them).
    public var bytes: Int
    /// Creates the refusal.
    public init(bytes: Int) { self.bytes = bytes }
}
