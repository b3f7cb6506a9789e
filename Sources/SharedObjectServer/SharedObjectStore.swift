public import JSONRPC

/// One persistent object as a store keeps it.
public struct StoredSharedObject: Sendable, Hashable {
    /// The object's name.
    public var name: String
    /// The version of the last change included.
    public var version: Int
    /// The properties.
    public var data: [String: JSONValue]

    /// Creates a stored object.
    public init(name: String, version: Int, data: [String: JSONValue]) {
        self.name = name
        self.version = version
        self.data = data
    }
}

/// Where a ``SharedObjectService`` keeps persistent objects. ``InMemorySharedObjectStore`` is the default; the
/// `SharedObjectSQLite` product adds a store that survives a restart.
///
/// The service may call ``save(_:)`` for one object from several tasks at once, so saves can arrive out of
/// order: a store must keep the highest version it was given and ignore older ones.
public protocol SharedObjectStore: Sendable {
    /// The stored object called `name`, or `nil`.
    func load(_ name: String) async throws -> StoredSharedObject?
    /// Stores `object` unless the store already holds a higher or equal version of it.
    func save(_ object: StoredSharedObject) async throws
    /// Forgets the object called `name`.
    func delete(_ name: String) async throws
    /// The objects the store holds and the bytes of their data (each object's JSON text), which
    /// ``SharedObjectQuotas`` count from the service's first connect on. `nil` when the store cannot tell (the
    /// default): the service then counts only the objects created since it started.
    func usage() async throws -> SharedObjectUsage?
}

extension SharedObjectStore {
    /// `nil`: the store does not say (see ``SharedObjectStore/usage()``).
    public func usage() async throws -> SharedObjectUsage? { nil }
}
