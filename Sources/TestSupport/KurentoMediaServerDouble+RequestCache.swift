import Foundation
import SignalingSupport

extension KurentoMediaServerDouble {
    /// KMS: RC (`RequestCache` / `CacheEntry`): the stored reply for `key`, if it has not expired (an entry lives for
    /// `REQUEST_TIMEOUT`, 20 s by default; here ``Configuration/requestCacheTTL``). Expired entries are dropped.
    func cachedReply(_ key: CacheKey) -> CachedReply? {
        state.withLock { s in
            let now = ContinuousClock.now
            s.world.cache = s.world.cache.filter { $0.value.expires > now }
            return s.world.cache[key]
        }
    }

    /// KMS: JRU `getValue` (string path): the request id as the cache sees it. A number and the string of its digits
    /// are the same key (`1` and `"1"` collide; an inference from the code).
    static func cacheID(_ id: Any) -> String {
        switch kind(of: id) {
        case .string: return id as? String ?? ""
        case .int: return (id as? NSNumber).map { "\($0.int64Value)" } ?? ""
        case .real: return (id as? NSNumber).map { "\($0.doubleValue)" } ?? ""
        case .bool: return (id as? NSNumber)?.boolValue == true ? "true" : "false"
        default: return ""
        }
    }
}
