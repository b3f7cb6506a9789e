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
            update = try await cluster.set(name, properties: params.properties, maxBytes: limits.maxBytesPerObject,
                                           quotas: configuration.quotas, sender: sender)
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
        if gap {
            let name = update.name, missing = update.version
            Task {
                try? await Task.sleep(for: Self.gapPatience)
                let stillMissing = self.state.withLock { s in (s.objects[name]?.version ?? .max) < missing }
                if stillMissing { await self.resyncFromCluster(name) }
            }
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
