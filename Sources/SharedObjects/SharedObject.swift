public import JSONRPC
import Logging
import SignalingSupport

/// One remote shared object: a JSON object with string keys that every connected client sees change in the same
/// order. Get it from ``SharedObjectClient/object(_:)`` or ``SharedObjectClient/connect(_:persistent:)``.
///
/// - **Snapshot.** ``data`` and ``version`` are the server's state as this client last applied it. They change
///   only with the server's versions, in version order (there is no optimistic local apply), so every client
///   converges to the same state. They are updated before the event is published.
/// - **Setting.** ``setProperties(_:)`` returns the version the server gave the change; by then ``data``
///   includes it (the server sends the setter its update before the reply).
/// - **Events.** ``events`` is multicast (docs/architecture.md#event-streams); the delegate face (``delegate``) is one
///   more subscriber.
/// - **Lifetime.** Its ``SharedObjectClient`` keeps an open object alive until it is closed (by ``close()`` or by
///   the server), and the object keeps its client alive.
public final class SharedObject: Sendable {
    enum Phase: Sendable {
        /// Not connected: never, or closed.
        case idle
        /// A connect (first, or a re-sync) is on its way: updates wait in the buffer.
        case syncing
        /// Connected: updates apply in version order.
        case open
    }

    struct State {
        var phase = Phase.idle
        var snapshot: SharedObjectState?
        var persistentRequested = false
        var buffer: [SharedObjectUpdate] = []
    }

    /// The object's name.
    public let name: String
    /// Kept alive by its objects, so that an application may hold only the objects.
    let owner: SharedObjectClient
    let rpc: JSONRPCClient
    let logger: Logger
    let state = LockedValue(State())
    let delegateFeeder = DelegateFeeder<any SharedObjectDelegate>()
    let eventHub = Broadcast<SharedObjectEvent>(bufferLimit: 1024)

    init(name: String, owner: SharedObjectClient) {
        self.name = name
        self.owner = owner
        rpc = owner.rpc
        logger = owner.logger
    }

    deinit {
        eventHub.finish()
        delegateFeeder.stop()
    }

    /// A new subscriber to this object's events, from this moment on, with a buffer of 1,024: it gets every event,
    /// or, when it falls further behind, the ones it buffered and then ``/JSONRPC/BroadcastOverflow``, once, ending
    /// it. To go on, subscribe again and read ``snapshot`` (already current).
    public var events: Broadcast<SharedObjectEvent>.Subscription { eventHub.subscribe() }

    /// The properties as last applied; empty before the first connect.
    public var data: [String: JSONValue] { state.withLock { $0.snapshot?.data ?? [:] } }

    /// The version of ``data``; 0 before the first connect and for a new object.
    public var version: Int { state.withLock { $0.snapshot?.version ?? 0 } }

    /// The whole state as last applied, `nil` before the first connect.
    public var snapshot: SharedObjectState? { state.withLock { $0.snapshot } }

    /// Whether the server keeps this object in its store (known once connected).
    public var isPersistent: Bool { state.withLock { $0.snapshot?.persistent ?? $0.persistentRequested } }

    /// Whether the object is connected (or re-syncing).
    public var isOpen: Bool { state.withLock { $0.phase != .idle } }

    /// Connects (`sharedObject.connect`) and returns the whole state, which ``data`` holds when this returns.
    /// Connecting an open object again re-syncs it.
    /// - Parameter persistent: whether a new object is kept in the server's store.
    /// - Throws: ``/JSONRPC/RPCError``: the server's refusal (``SharedObjectErrorCode``), timeout, connection closed.
    @discardableResult
    public func connect(persistent: Bool = false) async throws -> SharedObjectState {
        state.withLock { s in
            s.persistentRequested = persistent
            s.phase = .syncing
        }
        owner.retain(self, true)
        do {
            return try await requestState(persistent: persistent)
        } catch {
            syncFailed()
            throw error
        }
    }

    /// Re-connects an open object and replaces its snapshot (after a reconnection or a version gap).
    func resync() async throws {
        let persistent = state.withLock { s -> Bool? in
            guard s.phase != .idle else { return nil }
            s.phase = .syncing
            return s.persistentRequested
        }
        guard let persistent else { return }
        do {
            _ = try await requestState(persistent: persistent)
        } catch {
            syncFailed()
            throw error
        }
    }

    private func requestState(persistent: Bool) async throws -> SharedObjectState {
        let params = SharedObjectConnectParams(name: name, persistent: persistent).json
        // Applied in wire order (JSONRPCClient's `applying`): updates that came before the reply are in the buffer,
        // and later ones find the object open.
        return try await rpc.call(SharedObjectMethod.connect.rawValue, params: params) { [weak self] result in
            let state = try SharedObjectState(json: result)
            self?.applyConnected(state)
            return state
        }
    }

    /// Sets one key (`JSONValue.null` removes it) and returns the change's version.
    @discardableResult
    public func setProperty(_ key: String, _ value: JSONValue) async throws -> Int {
        try await setProperties([key: value])
    }

    /// Removes one key and returns the change's version.
    @discardableResult
    public func removeProperty(_ key: String) async throws -> Int { try await setProperties([key: .null]) }

    /// Sets several keys atomically (`JSONValue.null` removes a key) and returns the version the server gave the
    /// change (the current version when nothing changed). ``data`` includes the change when this returns.
    /// - Throws: ``/JSONRPC/RPCError``: e.g. 1101 not connected, 1104 object too large, -32000 rate limited.
    @discardableResult
    public func setProperties(_ properties: [String: JSONValue]) async throws -> Int {
        let params = SharedObjectSetParams(name: name, properties: properties).json
        let result = try await rpc.call(SharedObjectMethod.set.rawValue, params: params)
        guard let version = result["version"]?.intValue else {
            throw RPCError.invalidResponse("sharedObject.set result without version: \(result.redactingSessionIds.jsonText.prefix(200))")
        }
        return version
    }

    /// Sends `method` with `params` to every client of the object, this one included
    /// (``SharedObjectEvent/message(method:params:sender:)``).
    public func send(_ method: String, params: JSONValue? = nil) async throws {
        _ = try await rpc.call(SharedObjectMethod.send.rawValue,
                               params: SharedObjectSendParams(name: name, method: method, params: params).json)
    }

    /// Disconnects from the object (`sharedObject.close`); its events end with ``SharedObjectEvent/closed(reason:)``.
    /// The snapshot keeps the last state.
    public func close() async throws {
        markClosed(reason: "closed by this client")
        _ = try await rpc.call(SharedObjectMethod.close.rawValue, params: SharedObjectCloseParams(name: name).json)
    }

    // MARK: - Applying, in wire order

    private func applyConnected(_ connected: SharedObjectState) {
        let resync = state.withLock { s -> Bool in
            guard s.phase != .idle else { return false }
            s.snapshot = connected
            s.phase = .open
            eventHub.publish(.connected(connected))
            let buffered = s.buffer.sorted { $0.version < $1.version }
            s.buffer = []
            return buffered.contains { !applyInOrder($0, to: &s) }
        }
        if resync { scheduleResync() }
    }

    /// A connect failed: a never-connected object is idle again; one with a snapshot goes on from it, applying the
    /// updates that waited (they are still this session's, in order).
    private func syncFailed() {
        let idle = state.withLock { s -> Bool in
            guard s.phase == .syncing else { return false }
            guard s.snapshot != nil else {
                s.phase = .idle
                s.buffer = []
                return true
            }
            s.phase = .open
            let buffered = s.buffer.sorted { $0.version < $1.version }
            s.buffer = []
            for update in buffered where !applyInOrder(update, to: &s) { break }
            return false
        }
        if idle { owner.retain(self, false) }
    }

    func apply(_ update: SharedObjectUpdate) {
        let resync = state.withLock { s -> Bool in
            switch s.phase {
            case .idle: return false
            case .syncing:
                s.buffer.append(update)
                return false
            case .open:
                return !applyInOrder(update, to: &s)
            }
        }
        if resync { scheduleResync() }
    }

    /// Applies `update` if it is the next version, ignores an old one; `false` for a gap (a lost update).
    private func applyInOrder(_ update: SharedObjectUpdate, to s: inout State) -> Bool {
        guard var snapshot = s.snapshot else { return false }
        if update.version <= snapshot.version { return true }
        guard update.version == snapshot.version + 1 else { return false }
        for (key, value) in update.changed {
            if value == .null { snapshot.data[key] = nil } else { snapshot.data[key] = value }
        }
        snapshot.version = update.version
        s.snapshot = snapshot
        eventHub.publish(.updated(update))
        return true
    }

    func apply(_ message: SharedObjectMessage) {
        state.withLock { s in
            guard s.phase != .idle else { return }
            eventHub.publish(.message(method: message.method, params: message.params, sender: message.sender))
        }
    }

    func apply(_ closed: SharedObjectClosed) { markClosed(reason: closed.reason) }

    private func markClosed(reason: String) {
        let closed = state.withLock { s -> Bool in
            guard s.phase != .idle else { return false }
            s.phase = .idle
            s.buffer = []
            eventHub.publish(.closed(reason: reason))
            return true
        }
        if closed { owner.retain(self, false) }
    }

    private func scheduleResync() {
        logger.info("version gap: re-syncing", metadata: ["object": "\(name)"])
        Task { [weak self] in try? await self?.resync() }
    }
}
