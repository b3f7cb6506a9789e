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
/// - **Lifetime.** A non-persistent object disappears with its last client. A persistent one is written to the
///   ``SharedObjectStore`` after each change (before the setter's reply) and is loaded again by the next connect.
/// - **Sessions.** When a session ends (``/JSONRPC/JSONRPCServer/whenSessionEnds(_:)``) it is detached from its
///   objects. While its connection is gone, notifications to it are dropped: the client re-syncs on reconnection.
/// - **Limits.** ``SharedObjectLimits``; refusals use ``/SharedObjects/SharedObjectErrorCode``.
public final class SharedObjectService: Sendable {
    /// What a service is made of.
    public struct Configuration: Sendable {
        /// Where persistent objects are kept. Default: ``InMemorySharedObjectStore``.
        public var store: any SharedObjectStore
        /// Per-session limits.
        public var limits: SharedObjectLimits
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
            cluster: (any SharedObjectCluster)? = nil
        ) {
            self.cluster = cluster
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
    }

    struct State {
        var objects: [String: LiveObject] = [:]
        var clients: [String: Client] = [:]
        var loads: [String: Task<LoadedObject?, any Error>] = [:]
        var nextWaiter: UInt64 = 0
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
        logger.debug("session detached from its shared objects", metadata: ["session": "\(session)"])
    }
}
