/// What all sessions together may keep in a ``SharedObjectService`` (docs/wire-protocol.md#limits), so that no
/// number of sessions can fill the server: the objects that exist (every live object, and every persistent one in
/// the store, live or not) and the bytes of their data (as the UTF-8 length of each object's JSON text, as
/// ``SharedObjectLimits/maxBytesPerObject`` counts them). With a cluster (``SharedObjectService/Configuration/cluster``)
/// the quotas hold for the whole cluster, counted where the cluster keeps its objects.
///
/// A connect that would create one object more than ``maxObjects`` is refused with 1103; a change that would take
/// the bytes past ``maxBytes`` with 1104, changing nothing. Both refusals say that the server's quota, not the
/// session's limit, was reached.
public struct SharedObjectQuotas: Sendable, Hashable {
    /// Objects that may exist at once; `nil`: no limit. Default 10,000.
    public var maxObjects: Int?
    /// Bytes of data all objects together may hold; `nil`: no limit. Default 64 MiB.
    public var maxBytes: Int?

    /// Creates quotas; every argument has its default.
    public init(maxObjects: Int? = 10_000, maxBytes: Int? = 64 * 1024 * 1024) {
        self.maxObjects = maxObjects
        self.maxBytes = maxBytes
    }

    /// No quota at all.
    public static let unlimited = SharedObjectQuotas(maxObjects: nil, maxBytes: nil)
}
