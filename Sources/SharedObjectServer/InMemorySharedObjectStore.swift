import JSONRPC
import SignalingSupport

/// The default store: persistent objects live as long as the store (usually the process). They outlive their
/// last client, unlike non-persistent objects, but not a restart; use the `SharedObjectSQLite` product for that.
public final class InMemorySharedObjectStore: SharedObjectStore {
    private let objects = LockedValue([String: StoredSharedObject]())

    /// Creates an empty store.
    public init() {}

    public func load(_ name: String) async throws -> StoredSharedObject? { objects.withLock { $0[name] } }

    public func save(_ object: StoredSharedObject) async throws {
        objects.withLock { table in
            if let current = table[object.name], current.version >= object.version { return }
            table[object.name] = object
        }
    }

    public func delete(_ name: String) async throws { objects.withLock { _ = $0.removeValue(forKey: name) } }

    public func usage() async throws -> SharedObjectUsage? {
        objects.withLock { table in
            SharedObjectUsage(objects: table.count,
                              bytes: table.values.reduce(0) { $0 + JSONValue.object($1.data).jsonText.utf8.count })
        }
    }

    /// The names of the stored objects.
    public var names: [String] { objects.withLock { Array($0.keys) } }
}
