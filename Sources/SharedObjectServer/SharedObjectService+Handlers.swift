import JSONRPC
import Logging
import SharedObjects
import SignalingSupport

extension SharedObjectService {
    /// `sharedObject.connect`: check the limit, ask the authorizer, load a stored object if it is not live, then
    /// attach and answer with the whole state. Connecting again to an object already held answers the current
    /// state (that is how a client re-syncs). A new object must fit the rules for persistence and the quotas.
    func connect(_ params: SharedObjectConnectParams, session: ServerSession) async throws -> JSONValue {
        let name = params.name
        try state.withLock { s in try checkRoomForOneMore(name, session: session, in: s) }
        let access = SharedObjectAccess(name: name, persistent: params.persistent, session: session)
        guard try await configuration.authorize(access) else {
            throw RPCErrorObject.sharedObject(.unauthorized, "not authorized to connect to shared object '\(name)'")
        }
        try await readBaseline()
        let stored = try await loadUnlessLive(name, persistent: params.persistent)
        let (snapshot, firstSave, outbox) = try state.withLock {
            s -> (SharedObjectState, StoredSharedObject?, SessionOutbox) in
            try checkRoomForOneMore(name, session: session, in: s)
            var firstSave: StoredSharedObject?
            var object: LiveObject
            if let live = s.objects[name] {
                object = live
            } else if let stored {
                let bytes = Self.bytes(of: stored.data)
                if stored.persistent { countLoaded(name, bytes: bytes, in: &s) }
                object = LiveObject(version: stored.version, persistent: stored.persistent, data: stored.data, bytes: bytes)
            } else {
                try admitNewObject(name, persistent: params.persistent, in: &s)
                object = LiveObject(version: 0, persistent: params.persistent, data: [:], bytes: Self.bytes(of: [:]))
                if params.persistent, configuration.cluster == nil {
                    // Stored at once, so that an object nobody changed still exists after a restart.
                    object.pendingWrites += 1
                    firstSave = StoredSharedObject(name: name, version: 0, data: [:])
                }
            }
            if object.members.updateValue(session, forKey: session.id) == nil { configuration.cluster?.count(name, delta: 1) }
            s.objects[name] = object
            var client = s.clients[session.id]
                ?? Client(outbox: SessionOutbox(sharedObjectsOf: session, limit: limits.maxQueuedNotifications))
            client.names.insert(name)
            s.clients[session.id] = client
            let snapshot = SharedObjectState(name: name, version: object.version, persistent: object.persistent,
                                             data: object.data)
            return (snapshot, firstSave, client.outbox)
        }
        // Whatever was queued for this session before (other objects' updates) leaves before the reply.
        outbox.flush()
        if let firstSave { await save(firstSave) }
        logger.debug("connected", metadata: ["object": "\(name)", "session": .string(session.redactedID), "version": "\(snapshot.version)"])
        return snapshot.json
    }

    /// `sharedObject.set`: applies the properties atomically under the lock, gives the change the next version,
    /// queues `sharedObject.update` (only the keys whose value changed) for every client, sends it, saves a
    /// persistent object, and answers `{version}`.
    func set(_ params: SharedObjectSetParams, session: ServerSession) async throws -> JSONValue {
        try admit(session)
        let name = params.name
        let identity = configuration.identify(session)
        if let cluster = configuration.cluster {
            return try await clusterSet(params, session: session, identity: identity, cluster: cluster)
        }
        let (version, outboxes, write) = try state.withLock {
            s -> (Int, [SessionOutbox], StoredSharedObject?) in
            guard var object = s.objects[name], object.members[session.id] != nil else { throw Self.notConnected(name) }
            var data = object.data
            var changed: [String: JSONValue] = [:]
            for (key, value) in params.properties {
                if value == .null {
                    if data.removeValue(forKey: key) != nil { changed[key] = .null }
                } else if data[key] != value {
                    data[key] = value
                    changed[key] = value
                }
            }
            guard !changed.isEmpty else { return (object.version, [], nil) }
            let bytes = Self.bytes(of: data)
            if bytes > limits.maxBytesPerObject {
                throw RPCErrorObject.sharedObject(.objectTooLarge,
                    "shared object '\(name)' would be \(bytes) bytes (limit \(limits.maxBytesPerObject)); nothing was changed")
            }
            let update = SharedObjectUpdate(name: name, version: object.version + 1, changed: changed,
                                            sender: sender(of: session, identity, in: s)).json
            try spendFanOut(update, to: object, session: session)
            try admitBytes(bytes - object.bytes, for: name, in: &s)
            object.version += 1
            object.data = data
            object.bytes = bytes
            var write: StoredSharedObject?
            if object.persistent {
                object.pendingWrites += 1
                write = StoredSharedObject(name: name, version: object.version, data: data)
            }
            s.objects[name] = object
            let outboxes = enqueue(.update, update, to: object, in: s)
            return (object.version, outboxes, write)
        }
        for outbox in outboxes { outbox.flush() }
        if let write { await save(write) }
        return ["version": .int(version)]
    }

    /// `sharedObject.send`: `sharedObject.message` to every client of the object, the sender included; one over
    /// ``SharedObjectLimits/maxMessageBytes`` gets 1104 and goes nowhere.
    func send(_ params: SharedObjectSendParams, session: ServerSession) async throws -> JSONValue? {
        try admit(session)
        let identity = configuration.identify(session)
        let outboxes = try state.withLock { s -> [SessionOutbox] in
            guard let object = s.objects[params.name], object.members[session.id] != nil else {
                throw Self.notConnected(params.name)
            }
            let message = SharedObjectMessage(name: params.name, method: params.method, params: params.params,
                                              sender: sender(of: session, identity, in: s))
            let json = message.json
            let bytes = json.jsonText.utf8.count
            if bytes > limits.maxMessageBytes {
                throw RPCErrorObject.sharedObject(.objectTooLarge,
                    "message to shared object '\(params.name)' of \(bytes) bytes (limit \(limits.maxMessageBytes)); it was not sent")
            }
            try spendFanOut(json, to: object, session: session, bytes: bytes)
            let outboxes = enqueue(.message, json, to: object, in: s)
            // Under the lock, so that the other servers get messages and changes in this server's order.
            configuration.cluster?.post(message)
            return outboxes
        }
        for outbox in outboxes { outbox.flush() }
        return nil
    }

    /// `sharedObject.close`: detaches the session; closing an object not held succeeds too (it is idempotent).
    func close(_ params: SharedObjectCloseParams, session: ServerSession) throws -> JSONValue? {
        state.withLock { s in detach(session.id, from: params.name, in: &s) }
        return nil
    }

    // MARK: - Helpers

    private func checkRoomForOneMore(_ name: String, session: ServerSession, in s: State) throws(RPCErrorObject) {
        let names = s.clients[session.id]?.names ?? []
        if !names.contains(name), names.count >= limits.maxObjectsPerSession {
            throw .sharedObject(.tooManyObjects,
                                "too many shared objects for this session (limit \(limits.maxObjectsPerSession))")
        }
    }

    private func admit(_ session: ServerSession) throws(RPCErrorObject) {
        guard rateLimiter.count(session.id) <= rateLimiter.limit ?? .max else {
            throw .sharedObject(.rateLimited,
                                "rate limited: more than \(rateLimiter.limit ?? 0) shared-object updates per second")
        }
    }

    /// Who `session` is in its updates and messages: `identity` (from ``Configuration/identify``, called before the
    /// lock), else its anonymous id.
    func sender(of session: ServerSession, _ identity: SharedObjectSender?, in s: State) -> SharedObjectSender? {
        identity ?? s.clients[session.id].map { .anonymous($0.anonymousID) }
    }

    /// Charges `notification`'s bytes times `object`'s clients to the session's
    /// ``SharedObjectLimits/maxBroadcastBytesPerSecond``, or refuses with -32000 once the window holds the budget.
    private func spendFanOut(_ notification: JSONValue, to object: LiveObject, session: ServerSession,
                             bytes: Int? = nil) throws(RPCErrorObject) {
        guard let budget = broadcastBudget.limit else { return }
        let cost = (bytes ?? notification.jsonText.utf8.count) * object.members.count
        guard broadcastBudget.spend(session.id, cost) else {
            throw .sharedObject(.rateLimited, "rate limited: shared-object fan-out over \(budget) bytes per second "
                                + "(notification bytes × clients): send again in a second")
        }
    }

    static func notConnected(_ name: String) -> RPCErrorObject {
        .sharedObject(.notConnected, "not connected to shared object '\(name)': send sharedObject.connect first")
    }

    /// Queues one notification for every client of `object`, under the lock; returns the outboxes to flush.
    func enqueue(_ method: SharedObjectNotificationMethod, _ params: JSONValue, to object: LiveObject,
                         in s: State) -> [SessionOutbox] {
        object.members.keys.compactMap { id -> SessionOutbox? in
            guard let outbox = s.clients[id]?.outbox else { return nil }
            outbox.enqueue(method, params)
            return outbox
        }
    }

    /// Loads `name` from the store (with a cluster: opens it in the cluster, which creates it when it must and
    /// may) unless it is live; concurrent connects that ask the same share one load.
    private func loadUnlessLive(_ name: String, persistent: Bool) async throws -> LoadedObject? {
        let store = configuration.store, cluster = configuration.cluster
        let key = LoadKey(name: name, persistent: persistent)
        let creates = configuration.clientsCreatePersistentObjects, quotas = configuration.quotas
        let load = state.withLock { s -> Task<LoadedObject?, any Error>? in
            if s.objects[name] != nil { return nil }
            if let running = s.loads[key] { return running }
            let task = Task { () throws -> LoadedObject? in
                if let cluster {
                    let state = try await cluster.open(name, persistent: persistent, createsPersistent: creates,
                                                       quotas: quotas)
                    return LoadedObject(version: state.version, persistent: state.persistent, data: state.data)
                }
                return try await store.load(name).map { LoadedObject(version: $0.version, persistent: true, data: $0.data) }
            }
            s.loads[key] = task
            return task
        }
        guard let load else { return nil }
        defer { state.withLock { s in if s.loads[key] == load { s.loads[key] = nil } } }
        do {
            return try await load.value
        } catch let refusal as SharedObjectRefusal {
            throw refusal.error(for: name)
        } catch {
            // The detail (a file, an address) is for the log, never for the client.
            if cluster != nil { throw clusterUnavailable(error, while: "opening", name) }
            logger.error("store failed to load", metadata: ["object": "\(name)", "error": "\(error)"])
            throw RPCErrorObject.internalError("the store could not load shared object '\(name)'")
        }
    }

    /// Saves a persistent object's version; a store failure is logged (the change stays applied in memory and
    /// every client has seen it).
    private func save(_ object: StoredSharedObject) async {
        do {
            try await configuration.store.save(object)
        } catch {
            logger.error("store failed to save", metadata: ["object": "\(object.name)", "version": "\(object.version)",
                                                             "error": "\(error)"])
        }
        state.withLock { s in
            guard var live = s.objects[object.name] else { return }
            live.pendingWrites -= 1
            s.objects[object.name] = live.members.isEmpty && live.pendingWrites == 0 ? nil : live
        }
    }
}
