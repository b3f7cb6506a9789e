/// How much a store, a service or a cluster holds: objects, and the bytes of their data (the UTF-8 length of each
/// object's JSON text), as ``SharedObjectQuotas`` counts them.
public struct SharedObjectUsage: Sendable, Hashable {
    /// The objects.
    public var objects: Int
    /// The bytes of their data.
    public var bytes: Int

    /// Creates a usage.
    public init(objects: Int = 0, bytes: Int = 0) {
        self.objects = objects
        self.bytes = bytes
    }
}
