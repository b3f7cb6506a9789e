import JSONRPC
import Logging
public import SharedObjects
import SignalingSupport

extension SharedObjectService {
    /// What a client is told when the cluster cannot be reached: the error's detail (Redis's address, what the
    /// socket said) goes to the log only.
    func clusterUnavailable(_ error: any Error, while doing: String, _ name: String) -> RPCErrorObject {
        logger.warning("cluster unavailable", metadata: ["object": "\(name)", "while": "\(doing)", "error": "\(error)"])
        return RPCErrorObject(code: -32000, message: "cluster unavailable",
                              data: .string("the cluster is unreachable; nothing was changed, try again later"))
    }

    /// `sharedObject.set` with a cluster: the cluster decides the version; this server applies the update to its
    /// copy (the setter's update is queued before the reply) and the other servers apply it when it reaches them.
    func clusterSet(_ params: SharedObjectSetParams, session: ServerSession, identity: SharedObjectSender?,
                    cluster: any SharedObjectCluster) async throws -> JSONValue
    {
        let name = params.name
        let (current, sender) = try state.withLock { s -> (Int, SharedObjectSender?) in
            guard let object = s.objects[name], object.members[session.id] != nil else { throw Self.notConnected(name) }
            return (object.version, self.sender(of: session, identity, in: s))
        }
        let update: SharedObjectUpdate?
        do {
            do {
                update = try await cluster.set(name, properties: params.properties, maxBytes: limits.maxBytesPerObject,
                                               quotas: configuration.quotas, sender: sender)
            } catch is SharedObjectClusterMissing {
                // The cluster lost it (before this server heard it was restored): registered again from this
                // server's copy, the change follows the version the clients saw.
                guard await registerWithCluster(name, cluster) else { throw SharedObjectClusterMissing() }
                update = try await cluster.set(name, properties: params.properties, maxBytes: limits.maxBytesPerObject,
                                               quotas: configuration.quotas, sender: sender)
            }
        } catch let refusal as SharedObjectClusterTooLarge {
            throw RPCErrorObject.sharedObject(.objectTooLarge,
                "shared object '\(name)' would be \(refusal.bytes) bytes (limit \(limits.maxBytesPerObject)); nothing was changed")
        } catch let refusal as SharedObjectRefusal {
            throw refusal.error(for: name)
        } catch let error as RPCErrorObject {
            throw error
        } catch {
            throw clusterUnavailable(error, while: "changing", name)
        }
        guard let update else { return ["version": .int(current)] }
        // Its update reaches this node's clients, the setter among them, before the reply, in version order.
        await deliverFromCluster(update: update)
        await waitUntilApplied(update.version, of: name)
        return ["version": .int(update.version)]
    }

    /// How long a version may be missing (an update still on its way from another node) before the whole object
    /// is read again.
    static let gapPatience = Duration.milliseconds(500)

    /// Applies a change the cluster sequenced (this server's or another's) to this server's copy, in version
    /// order: the next version is merged and sent to the local clients, then any later ones that came early; an
    /// older one is ignored; one that comes early waits for those before it, and when they do not come within half
    /// a second (`gapPatience`: an update lost on the way) the whole object is read again and the local clients get what
    /// differs.
    public func deliverFromCluster(update: SharedObjectUpdate) async {
        let (outboxes, gap, woken) = state.withLock { s -> ([SessionOutbox], Bool, [CheckedContinuation<Void, Never>]) in
            guard var object = s.objects[update.name], update.version > object.version else { return ([], false, []) }
            object.ahead[update.version] = update
            var outboxes: [SessionOutbox] = []
            while let next = object.ahead.removeValue(forKey: object.version + 1) {
                for (key, value) in next.changed {
                    if value == .null { object.data[key] = nil } else { object.data[key] = value }
                }
                object.version = next.version
                outboxes += enqueue(.update, next.json, to: object, in: s)
            }
            let woken = Self.takeWaiters(upTo: object.version, of: &object)
            s.objects[update.name] = object
            return (outboxes, !object.ahead.isEmpty, woken)
        }
        for outbox in outboxes { outbox.flush() }
        woken.forEach { $0.resume() }
        if gap { resyncLater(update.name, unless: update.version) }
    }

    /// Reads `name` from the cluster again in ``gapPatience`` unless this server's copy reached `version` by then
    /// (the updates up to it were on their way).
    func resyncLater(_ name: String, unless version: Int) {
        Task {
            try? await Task.sleep(for: Self.gapPatience)
            let stillMissing = self.state.withLock { s in (s.objects[name]?.version ?? .max) < version }
            if stillMissing { await self.resyncFromCluster(name) }
        }
    }

    /// Waits until this server's copy of `name` is at `version` or later, or is gone, for at most twice
    /// ``gapPatience`` plus a resync (then the setter is answered anyway: its change is in the cluster).
    func waitUntilApplied(_ version: Int, of name: String) async {
        await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in
            let id = state.withLock { s -> UInt64? in
                guard var object = s.objects[name], object.version < version else { return nil }
                s.nextWaiter += 1
                object.waiters.append((version, s.nextWaiter, resume))
                s.objects[name] = object
                return s.nextWaiter
            }
            guard let id else { return resume.resume() }
            Task {
                try? await Task.sleep(for: Self.gapPatience * 4)
                let late = self.state.withLock { s -> CheckedContinuation<Void, Never>? in
                    guard var object = s.objects[name], let index = object.waiters.firstIndex(where: { $0.id == id })
                    else { return nil }
                    let waiter = object.waiters.remove(at: index)
                    s.objects[name] = object
                    return waiter.resume
                }
                late?.resume()
            }
        }
    }

    /// Removes and returns the waiters whose version is applied.
    static func takeWaiters(upTo version: Int, of object: inout LiveObject) -> [CheckedContinuation<Void, Never>] {
        let ready = object.waiters.filter { $0.version <= version }.map(\.resume)
        object.waiters.removeAll { $0.version <= version }
        return ready
    }

    /// Delivers a message another server's client sent to this server's clients of its object.
    public func deliverFromCluster(message: SharedObjectMessage) {
        let outboxes = state.withLock { s -> [SessionOutbox] in
            guard let object = s.objects[message.name] else { return [] }
            return enqueue(.message, message.json, to: object, in: s)
        }
        for outbox in outboxes { outbox.flush() }
    }

    /// Reads `name` from the cluster and brings this server's copy and its clients up to it.
    func resyncFromCluster(_ name: String) async {
        guard let cluster = configuration.cluster,
              let fresh = try? await cluster.open(name, persistent: false, createsPersistent: false,
                                                  quotas: configuration.quotas) else { return }
        let (outboxes, woken) = state.withLock { s -> ([SessionOutbox], [CheckedContinuation<Void, Never>]) in
            guard var object = s.objects[name], fresh.version > object.version else { return ([], []) }
            var changed: [String: JSONValue] = [:]
            for (key, value) in fresh.data where object.data[key] != value { changed[key] = value }
            for key in object.data.keys where fresh.data[key] == nil { changed[key] = .null }
            object.data = fresh.data
            object.version = fresh.version
            object.ahead = object.ahead.filter { $0.key > fresh.version }
            let woken = Self.takeWaiters(upTo: object.version, of: &object)
            s.objects[name] = object
            let outboxes = enqueue(.update, SharedObjectUpdate(name: name, version: fresh.version, changed: changed).json,
                                   to: object, in: s)
            return (outboxes, woken)
        }
        for outbox in outboxes { outbox.flush() }
        woken.forEach { $0.resume() }
    }
}

extension SharedObjectService {
    /// With a cluster: registers every object this server holds again, with its clients here, after the cluster
    /// lost them (``SharedObjectCluster/register(_:clients:)``; a room server calls it when its cluster reports
    /// Redis restored, or this node back from presumed death). An object whose registration fails is tried again
    /// (backoff from 100 ms to 2 s) until it succeeds or this server no longer holds it. A copy older than the
    /// cluster's is brought up to it as a missing update is: its updates have `gapPatience` (500 ms) to arrive,
    /// then the object is read again and its clients told what differs.
    public func registerObjectsWithCluster() async {
        guard let cluster = configuration.cluster else { return }
        var names = state.withLock { Array($0.objects.keys) }.sorted(), pause = Duration.milliseconds(100)
        while !names.isEmpty {
            var failed: [String] = []
            for name in names where await !registerWithCluster(name, cluster) { failed.append(name) }
            guard !failed.isEmpty else { return }
            logger.warning("cluster: could not register some shared objects again; trying again",
                           metadata: ["objects": "\(failed.count)", "in": "\(pause)"])
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(2))
            names = failed
        }
    }

    /// Registers `name` again with its clients here; false when the cluster failed and this server still holds it.
    /// The count sent is read under the lock, and a connect or close meanwhile sends its own ±1 (in order, on the
    /// same connection) before or after the registration: so it is sent again until the count did not change
    /// meanwhile (0 once the object left this server), which leaves the cluster with this server's count.
    func registerWithCluster(_ name: String, _ cluster: any SharedObjectCluster) async -> Bool {
        var last: SharedObjectState?, sent: Int?
        for _ in 0..<10 {
            let current = state.withLock { s in
                s.objects[name].map { (SharedObjectState(name: name, version: $0.version, persistent: $0.persistent,
                                                         data: $0.data), $0.members.count) }
            }
            if let current { last = current.0 }
            let clients = current?.1 ?? 0
            guard let copy = last, clients != sent else { return true }
            do {
                // A newer version in the cluster: its updates are on their way (with their senders), else read.
                let fresh = try await cluster.register(copy, clients: clients)
                if fresh.version > copy.version { resyncLater(name, unless: fresh.version) }
            } catch {
                logger.warning("cluster: could not register a shared object again",
                               metadata: ["object": "\(name)", "error": "\(error)"])
                return current == nil
            }
            sent = clients
        }
        return true
    }
}
