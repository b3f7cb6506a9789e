import JSONRPC
import Logging
import SharedObjects
import SignalingSupport

/// ``SharedObjectService/Configuration/quotas`` without a cluster: the service counts the objects and bytes that
/// exist (live objects, and persistent ones in the store) under its lock, starting from the store's own count.
/// With a cluster, the cluster counts and refuses (``SharedObjectCluster``).
extension SharedObjectService {
    /// The UTF-8 length of `data`'s JSON text: what the limits and quotas count.
    static func bytes(of data: [String: JSONValue]) -> Int { JSONValue.object(data).jsonText.utf8.count }

    /// Adds the store's count to the usage once, before the first object is created (every connect waits for it,
    /// so that nothing is counted twice). A store that fails to count answers the connect with -32603, and the
    /// next connect asks again.
    func readBaseline() async throws {
        guard configuration.cluster == nil else { return }
        let store = configuration.store
        let reading = state.withLock { s -> Task<Void, any Error>? in
            switch s.baseline {
            case .read: return nil
            case .reading(let task): return task
            case .unread:
                let task = Task {
                    let stored = try await store.usage()
                    self.state.withLock { s in
                        s.usage.objects += stored?.objects ?? 0
                        s.usage.bytes += stored?.bytes ?? 0
                        s.baseline = .read(known: stored != nil)
                    }
                }
                s.baseline = .reading(task)
                return task
            }
        }
        guard let reading else { return }
        do {
            try await reading.value
        } catch {
            state.withLock { s in if case .reading(let task) = s.baseline, task == reading { s.baseline = .unread } }
            logger.error("store failed to count its objects", metadata: ["error": "\(error)"])
            throw RPCErrorObject.internalError("the store could not count its shared objects")
        }
    }

    /// Checks that one more new object fits the rules and the quotas, and counts it (under the lock, before the
    /// object is made).
    func admitNewObject(_ name: String, persistent: Bool, in s: inout State) throws(RPCErrorObject) {
        if persistent, !configuration.clientsCreatePersistentObjects {
            throw SharedObjectRefusal.persistentNotAllowed.error(for: name)
        }
        guard configuration.cluster == nil else { return }
        let empty = Self.bytes(of: [:])
        if let limit = configuration.quotas.maxObjects, s.usage.objects + 1 > limit {
            throw SharedObjectRefusal.tooManyObjects(limit: limit).error(for: name)
        }
        try admitBytes(empty, for: name, in: &s)
        s.usage.objects += 1
        if persistent, case .read(known: false) = s.baseline { s.countedStored.insert(name) }
    }

    /// Counts a persistent object loaded from a store that cannot count its own, the first time it is met.
    func countLoaded(_ name: String, bytes: Int, in s: inout State) {
        guard configuration.cluster == nil, case .read(known: false) = s.baseline,
              s.countedStored.insert(name).inserted else { return }
        s.usage.objects += 1
        s.usage.bytes += bytes
    }

    /// Checks that `delta` more bytes fit ``SharedObjectQuotas/maxBytes`` and counts them (a negative delta always
    /// fits).
    func admitBytes(_ delta: Int, for name: String, in s: inout State) throws(RPCErrorObject) {
        guard configuration.cluster == nil else { return }
        if delta > 0, let limit = configuration.quotas.maxBytes, s.usage.bytes + delta > limit {
            throw SharedObjectRefusal.tooManyBytes(bytes: s.usage.bytes + delta, limit: limit).error(for: name)
        }
        s.usage.bytes += delta
    }
}
