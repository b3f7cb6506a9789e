public import JSONRPC
public import SharedObjects

/// Where the objects of a ``SharedObjectService`` are sequenced when several servers (the nodes of a room-server
/// cluster) serve the same objects: each change gets its version there, atomically, and reaches every other server
/// (``SharedObjectService/deliverFromCluster(update:)``). Without one (the default), the service sequences its
/// objects itself, in memory.
public protocol SharedObjectCluster: Sendable {
    /// The object's state across the cluster, created empty at version 0 (`persistent` as asked) when it has none.
    func open(_ name: String, persistent: Bool) async throws -> SharedObjectState
    /// Applies `properties` (`null` removes a key) to `name` in one step: the update (its version and the keys
    /// whose value changed), sent to the other servers too; `nil` when nothing changed. Throws
    /// ``SharedObjectClusterTooLarge`` when the object would exceed `maxBytes`.
    func set(_ name: String, properties: [String: JSONValue], maxBytes: Int) async throws -> SharedObjectUpdate?
    /// Sends `message` to the other servers (this one delivers it itself); returns at once, in call order.
    func post(_ message: SharedObjectMessage)
    /// One more (`delta` 1) or one fewer (-1) client of `name` on this server; a non-persistent object without
    /// clients anywhere is forgotten. Returns at once, in call order.
    func count(_ name: String, delta: Int)
}

/// The cluster refused a change that would make the object larger than its limit.
public struct SharedObjectClusterTooLarge: Error, Sendable {
    /// The size the object would have had, in bytes (as the cluster counts them).
    public var bytes: Int
    /// Creates the refusal.
    public init(bytes: Int) { self.bytes = bytes }
}
