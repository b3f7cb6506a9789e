public import JSONRPC
public import Logging
public import SharedObjects
public import SignalingSupport

/// The server side of shared objects, for any server built on ``/JSONRPC/JSONRPCServer``:
///
/// ```swift
/// let rpc = JSONRPCServer()
/// SharedObjectService(store: InMemorySharedObjectStore(), limits: .init()).install(on: rpc)
/// let listener = try await rpc.listen(on: .init())
/// ```
///
/// - **Order.** Every accepted change gets the next version of its object (1, 2, …), decided under one lock. Each
///   client of the object gets `sharedObject.update` with that version and only the changed keys, in version
///   order; the setter gets it too, before its `sharedObject.set` result (`{version}`). A set that changes nothing
///   is answered with the current version and sends no update.
/// - **Messages.** `sharedObject.send` reaches every client of the object, the sender included, in order with the
///   updates.
/// - **Senders.** Every update and message says who sent it, as the server knows the session
///   (``Configuration/identify``, else an anonymous id the service gives the session), never from the params.
/// - **Lifetime.** A non-persistent object disappears with its last client. A persistent one is written to the
///   ``SharedObjectStore`` after each change (before the setter's reply) and is loaded again by the next connect.
///   Whether clients may create persistent objects is ``Configuration/clientsCreatePersistentObjects``.
/// - **Sessions.** When a session ends (``/JSONRPC/JSONRPCServer/whenSessionEnds(_:)``) it is detached from its
///   objects. While its connection is gone, notifications to it are dropped: the client re-syncs on reconnection.
/// - **Limits.** ``SharedObjectLimits`` per session and ``SharedObjectQuotas`` for everyone together; refusals use
///   ``/SharedObjects/SharedObjectErrorCode``.
public final class SharedObjectService: Sendable {
    /// What a service is made of.
    public struct Configuration: Sendable {
        /// Where persistent objects are kept. Default: ``InMemorySharedObjectStore``.
        public var store: any SharedObjectStore
        /// Per-session limits.
        public var limits: SharedObjectLimits
        /// What all sessions together may keep (with a cluster: in the whole cluster). Default: 10,000 objects,
        /// 64 MiB.
        public var quotas: SharedObjectQuotas
        /// Whether a client may create a persistent object: `sharedObject.connect{persistent: true}` for a name that
        /// does not exist yet. When `false` such a connect is refused with 1102 and creates nothing; connecting to an
        /// object that is already persistent is not affected. Default `true`; `room-server` turns it off
        /// (`--allow-persistent-shared-objects` turns it on). The ``authorize`` closure sees ``SharedObjectAccess/persistent``
        /// too, for finer rules.
        public var clientsCreatePersistentObjects: Bool
        /// Who a session is, for the ``/SharedObjects/SharedObjectSender`` of its updates and messages; `nil`: a
        /// session without a user, known by an anonymous id the service gives it. Called outside the service's
        /// lock, for every `set` and `send`; keep it fast. Default: everyone is anonymous (a `RoomServer` names
        /// the user and room a session joined).
        public var identify: @Sendable (ServerSession) -> SharedObjectSender?
        /// Decides whether a session may connect to an object: `false` answers 1102; a thrown
        /// ``/JSONRPC/RPCErrorObject`` answers with that error. Default: everyone may connect to everything.
        public var authorize: @Sendable (SharedObjectAccess) async throws -> Bool
        /// Where the service logs. Default: discards everything.
        public var logger: Logger
        /// The clock of the rate limit.
        public var clock: any SignalingClock
        /// Where objects are sequenced when several servers serve them (a room-server cluster); `nil` (the
        /// default): here, in memory, with ``store`` for persistent objects. With a cluster, the cluster keeps
        /// persistent objects and ``store`` is not used.
        public var cluster: (any SharedObjectCluster)?

        /// Creates a configuration; every argument has its default.
        public init(
            store: any SharedObjectStore = InMemorySharedObjectStore(),
            limits: SharedObjectLimits = .init(),
            authorize: @escaping @Sendable (SharedObjectAccess) async throws -> Bool = { _ in true },
            logger: Logger = .disabled(label: "KurentoSignaling.SharedObjects"),
            clock: any SignalingClock = SystemClock(),
            cluster: (any SharedObjectCluster)? = nil,
            quotas: SharedObjectQuotas = .init(),
            clientsCreatePersistentObjects: Bool = true,
            identify: @escaping @Sendable (ServerSession) -> SharedObjectSender? = { _ in nil }
        ) {
            self.cluster = cluster
            self.quotas = quotas
            self.clientsCreatePersistentObjects = clientsCreatePersistentObjects
            self.identify = identify
            self.store = store
            self.limits = limits
            self.authorize = authorize
            self.logger = logger
            self.clock = clock
        }
    }

    struct LiveObject {
        var version: Int
        var persistent: Bool
        var data: [String: JSONValue]
        /// The UTF-8 length of `data`'s JSON text (what the quotas count; without a cluster).
        var bytes: Int
        /// The connected sessions, by id.
        var members: [String: ServerSession] = [:]
        /// Saves not finished yet: a persistent object stays in memory until they are, so a later connect never
        /// loads an older version from the store.
        var pendingWrites = 0
        /// With a cluster: updates that arrived before the versions they follow, by version.
        var ahead: [Int: SharedObjectUpdate] = [:]
        /// With a cluster: setters waiting until their version is applied here, with that version and an id.
        var waiters: [(version: Int, id: UInt64, resume: CheckedContinuation<Void, Never>)] = []
    }

    /// An object as a connect finds it: in the store, or in the cluster.
    struct LoadedObject: Sendable {
        var version: Int
        var persistent: Bool
        var data: [String: JSONValue]
    }

    struct Client {
        let outbox: SessionOutbox
        var names: Set<String> = []
        /// The session's ``/SharedObjects/SharedObjectSender/anonymous(_:)`` id: random, not derived from its
        /// session id.
        let anonymousID = String(SecureID.hex().prefix(16))
    }

    /// A load in progress: of one name, for a connect that asked for persistence or not.
    struct LoadKey: Hashable {
        var name: String
        var persistent: Bool
    }

    struct State {
        var objects: [String: LiveObject] = [:]
        var clients: [String: Client] = [:]
        var loads: [LoadKey: Task<LoadedObject?, any Error>] = [:]
        var nextWaiter: UInt64 = 0
        /// Without a cluster: the objects and bytes ``Configuration/quotas`` count (the live objects and every
        /// persistent one the store holds).
        var usage = SharedObjectUsage()
        /// Without a cluster: how far the store's own count (``SharedObjectStore/usage()``) has been added to
        /// ``usage``.
        var baseline = Baseline.unread
        /// Persistent objects counted since the service started, when the store cannot count its own.
        var countedStored: Set<String> = []
    }

    /// Whether the store's objects are in ``State/usage`` yet.
    enum Baseline {
        case unread
        case reading(Task<Void, any Error>)
        /// Read; `known` is false for a store that cannot count (its objects are counted as they are met).
        case read(known: Bool)
    }

    /// The settings this service was made with.
    public let configuration: Configuration
    let state = LockedValue(State())
    let rateLimiter: WindowedRateCounter
    /// ``SharedObjectLimits/maxBroadcastBytesPerSecond``, per session.
    let broadcastBudget: WindowedRateCounter
    var logger: Logger { configuration.logger }
    var limits: SharedObjectLimits { configuration.limits }

    /// Creates a service.
    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        rateLimiter = WindowedRateCounter(limit: configuration.limits.maxUpdatesPerSecond, clock: configuration.clock)
        broadcastBudget = WindowedRateCounter(limit: configuration.limits.maxBroadcastBytesPerSecond,
                                              clock: configuration.clock)
    }

    /// Creates a service with `store`, `limits` and `authorizer` (see ``Configuration``).
    public convenience init(
        store: any SharedObjectStore = InMemorySharedObjectStore(), limits: SharedObjectLimits = .init(),
        authorizer: @escaping @Sendable (SharedObjectAccess) async throws -> Bool = { _ in true }
    ) {
        self.init(configuration: .init(store: store, limits: limits, authorize: authorizer))
    }

    /// Registers `sharedObject.connect`, `.set`, `.send` and `.close` on `server`, and detaches every session
    /// that ends there. The server keeps the service alive. One service may serve several servers.
    public func install(on server: JSONRPCServer) {
        // Held strongly: `SharedObjectService(…).install(on: rpc)` is enough; the service holds no server.
        server.register(SharedObjectMethod.connect.rawValue) { params, context in
            try await self.connect(try SharedObjectConnectParams(json: params), session: context.session)
        }
        server.register(SharedObjectMethod.set.rawValue) { params, context in
            try await self.set(try SharedObjectSetParams(json: params), session: context.session)
        }
        server.register(SharedObjectMethod.send.rawValue) { params, context in
            try await self.send(try SharedObjectSendParams(json: params), session: context.session)
        }
        server.register(SharedObjectMethod.close.rawValue) { params, context in
            try self.close(try SharedObjectCloseParams(json: params), session: context.session)
        }
        server.whenSessionEnds { session in self.sessionEnded(session) }
    }

    /// The state of the live object `name` (one that has clients, or a persistent one still in memory).
    public func state(of name: String) -> SharedObjectState? {
        state.withLock { s in
            s.objects[name].map { SharedObjectState(name: name, version: $0.version, persistent: $0.persistent, data: $0.data) }
        }
    }

    /// The names of the live objects.
    public var liveObjectNames: [String] { state.withLock { Array($0.objects.keys) } }

    /// What ``Configuration/quotas`` count now, without a cluster: the live objects and the persistent ones in the
    /// store (those of a store that cannot count its own only once this service met them), and the bytes of their
    /// data. With a cluster the cluster counts, and this stays zero.
    public var usage: SharedObjectUsage { state.withLock { $0.usage } }

    /// The names of the objects `session` is connected to.
    public func objectNames(of session: ServerSession) -> Set<String> {
        state.withLock { $0.clients[session.id]?.names ?? [] }
    }

    /// Detaches `session` from every object whose name satisfies `predicate`, telling it with
    /// `sharedObject.closed` and `reason` (a room server calls it when a member leaves: `room:R/…` objects are
    /// for members only).
    public func revoke(_ session: ServerSession, reason: String, where predicate: (String) -> Bool) async {
        let outbox = state.withLock { s -> SessionOutbox? in
            guard let client = s.clients[session.id] else { return nil }
            let names = client.names.filter(predicate)
            for name in names.sorted() {
                detach(session.id, from: name, in: &s)
                client.outbox.enqueue(.closed, SharedObjectClosed(name: name, reason: reason).json)
            }
            return names.isEmpty ? nil : client.outbox
        }
        outbox?.flush()
    }

    /// Removes `session` from `name` (under the lock); a non-persistent object without clients disappears, a
    /// persistent one leaves memory once its saves are done.
    func detach(_ sessionID: String, from name: String, in s: inout State) {
        s.clients[sessionID]?.names.remove(name)
        guard var object = s.objects[name] else { return }
        if object.members.removeValue(forKey: sessionID) != nil { configuration.cluster?.count(name, delta: -1) }
        let gone = object.members.isEmpty && object.pendingWrites == 0
        if gone, !object.persistent, configuration.cluster == nil {
            // Gone for good: it no longer counts (a persistent one still does, in the store).
            s.usage.objects -= 1
            s.usage.bytes -= object.bytes
        }
        if gone {
            // (no one is left to wait for a version here: a waiter is resumed, outside this lock, and answers)
            let waiters = object.waiters.map(\.resume)
            if !waiters.isEmpty { Task { waiters.forEach { $0.resume() } } }
            object.waiters = []
        }
        s.objects[name] = gone ? nil : object
    }

    private func sessionEnded(_ session: ServerSession) {
        rateLimiter.forget(session.id)
        broadcastBudget.forget(session.id)
        state.withLock { s in
            for name in s.clients[session.id]?.names ?? [] { detach(session.id, from: name, in: &s) }
            s.clients[session.id] = nil
        }
        logger.debug("session detached from its shared objects", metadata: ["session": .string(session.redactedID)])
    }
}
