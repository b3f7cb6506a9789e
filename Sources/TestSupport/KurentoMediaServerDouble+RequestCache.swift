import Foundation
import SignalingSupport

extension KurentoMediaServerDouble {
    /// KMS: RC (`RequestCache` / `CacheEntry`): the stored reply for `key`, if it has not expired (an entry lives for
    /// `REQUEST_TIMEOUT`, 20 s by default; here ``Configuration/requestCacheTTL``). Expired entries are dropped.
    func cachedReply(_ key: CacheKey) -> CachedReply? {
        state.withLock { s in
            s.world.dropExpiredReplies(now: ContinuousClock.now)
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

extension KurentoMediaServerDouble.World {
    /// KMS: SM7 `postProcess`: stores `reply` under `key` (replacing an earlier one), to expire at `reply.expires`.
    mutating func store(_ reply: KurentoMediaServerDouble.CachedReply, for key: KurentoMediaServerDouble.CacheKey) {
        cache[key] = reply
        cacheOrder.append((key, reply.expires))
    }

    /// Drops the replies whose time is up. They were stored in the order they expire (one TTL for all), so this
    /// stops at the first reply still alive instead of scanning the whole cache on every request, which made a
    /// thousand clients' storm quadratic (`make bench`).
    mutating func dropExpiredReplies(now: ContinuousClock.Instant) {
        while cacheHead < cacheOrder.count, cacheOrder[cacheHead].expires <= now {
            let key = cacheOrder[cacheHead].key
            // (a reply stored again under the same key since lives on)
            if let reply = cache[key], reply.expires <= now { cache[key] = nil }
            cacheHead += 1
        }
        if cacheHead >= 1024, cacheHead * 2 >= cacheOrder.count {
            cacheOrder.removeFirst(cacheHead)
            cacheHead = 0
        }
    }
}
