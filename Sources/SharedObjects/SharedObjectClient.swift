public import JSONRPC
public import Logging
public import SignalingSupport

/// A table entry: it keeps its object alive only while it is open.
struct ObjectEntry: Sendable {
    weak var object: SharedObject?
    var retained: SharedObject?
}

/// The shared objects of one ``/JSONRPC/JSONRPCClient`` connection: it claims the connection's `sharedObject.*`
/// notifications (``/JSONRPC/JSONRPCClient/claimNotifications(inNamespace:by:_:)``), routes them to the right
/// ``SharedObject``, and re-syncs every open object when the connection comes back.
///
/// ```swift
/// let shared = SharedObjectClient(client: rpc)              // one per JSONRPCClient
/// let color = try await shared.connect("room:demo/color")   // the whole state is in color.data now
/// try await color.setProperty("color", "red")
/// for try await event in color.events { print(event) }
/// ```
///
/// With a `RoomClient` (the RoomClient module), pass its JSON-RPC client: `room:R/…` objects need the session to have
/// joined room R. The shared-object notifications then reach the objects only, never the room client's events.
///
/// **One per JSON-RPC client.** A second `SharedObjectClient` on a ``/JSONRPC/JSONRPCClient`` whose first one is
/// still alive (its objects keep it alive) is a programmer error that stops the program: keep one and share it.
///
/// **Re-sync.** After any (re)connection that follows a loss (`connected` again, or `resumed`), each open object
/// sends `sharedObject.connect` again and replaces its snapshot with the result; its events then show
/// ``SharedObjectEvent/connected(_:)`` again. A `room:R/…` object needs the session to be in room R: after a
/// reconnect into a fresh session, call ``resyncAll()`` once the room client reports that it rejoined.
public final class SharedObjectClient: Sendable {
    struct Watch {
        var everConnected = false
        var lost = false
        /// Whether the observer has seen a state yet (until then, the state at creation counts).
        var observed = false
    }

    /// The JSON-RPC client the objects talk through.
    public let rpc: JSONRPCClient
    let logger: Logger
    /// An object keeps its client alive; the client keeps an object alive only while it is open (connected and
    /// not closed), so that `shared.object(name)` finds the same open object again.
    private let objects: LockedValue<[String: ObjectEntry]>
    private let watch = LockedValue(Watch())
    /// The connection's `sharedObject` notifications, for as long as this client lives.
    private let claim: NotificationClaim

    /// Creates the shared objects of `client`'s connection.
    /// - Precondition: no other `SharedObjectClient` of `client` is alive: create one per ``/JSONRPC/JSONRPCClient``.
    public init(client: JSONRPCClient,
                logger: Logger = .disabled(label: "KurentoSignaling.SharedObjectClient")) {
        rpc = client
        self.logger = logger
        let objects = LockedValue([String: ObjectEntry]())
        self.objects = objects
        claim = client.claimNotifications(inNamespace: "sharedObject", by: "SharedObjectClient") { notification in
            Self.route(notification, to: objects, logger: logger)
        }
        client.observeConnectionStates { [weak self] state in self?.connectionChanged(state) }
        // Made after the client connected (a RoomClient that joined first): that connection counts as the first.
        let connected = client.isConnected
        watch.withLock { w in if !w.observed { w.everConnected = connected } }
    }

    /// The object called `name` (one instance per name), not connected until ``SharedObject/connect(persistent:)``.
    /// Subscribe to its ``SharedObject/events`` before connecting to see the first ``SharedObjectEvent/connected(_:)``.
    public func object(_ name: String) -> SharedObject {
        objects.withLock { table in
            if let existing = table[name]?.object { return existing }
            let object = SharedObject(name: name, owner: self)
            table = table.filter { $0.value.object != nil }
            table[name] = ObjectEntry(object: object)
            return object
        }
    }

    /// Connects to the object called `name` and returns it with its whole state in ``SharedObject/data``.
    /// - Parameters:
    ///   - name: the object's name (see ``SharedObjectName`` for the rules; `room:R/…` needs the session in room R).
    ///   - persistent: whether a new object is kept in the server's store (an existing one keeps its
    ///     persistence; ``SharedObject/isPersistent`` says which).
    /// - Throws: ``/JSONRPC/RPCError``; the server's refusals carry ``SharedObjectErrorCode``s.
    public func connect(_ name: String, persistent: Bool = false) async throws -> SharedObject {
        let object = object(name)
        _ = try await object.connect(persistent: persistent)
        return object
    }

    /// Keeps an open object alive (`true`), or lets it go once closed (`false`).
    func retain(_ object: SharedObject, _ open: Bool) {
        objects.withLock { table in
            guard table[object.name]?.object === object else { return }
            table[object.name]?.retained = open ? object : nil
        }
    }

    /// The objects made with ``object(_:)`` that are connected now.
    public var openObjects: [SharedObject] { objects.withLock { $0.values.compactMap(\.object) }.filter(\.isOpen) }

    /// In the receive loop, in wire order: hands a `sharedObject.*` notification to its object.
    private static func route(_ notification: RPCNotification, to objects: LockedValue<[String: ObjectEntry]>,
                              logger: Logger) {
        guard let method = SharedObjectNotificationMethod(rawValue: notification.method),
              let name = notification.params?["name"]?.stringValue,
              let object = objects.withLock({ $0[name]?.object })
        else {
            logger.debug("shared-object notification for no open object", metadata: ["method": "\(notification.method)"])
            return
        }
        do {
            switch method {
            case .update: object.apply(try SharedObjectUpdate(json: notification.params))
            case .message: object.apply(try SharedObjectMessage(json: notification.params))
            case .closed: object.apply(try SharedObjectClosed(json: notification.params))
            }
        } catch {
            logger.warning("malformed shared-object notification", metadata: ["error": "\(error)"])
        }
    }

    /// A state observer of the JSON-RPC client (in its callback order): decides, and leaves the calls to a task, so
    /// that later callbacks are not held up.
    private func connectionChanged(_ state: ConnectionState) {
        // Not a switch: ConnectionState is gaining cases (reconnecting, resumed, rejoined), and this must keep
        // compiling without a warning before and after. Whatever says it is connected again counts.
        let connectedAgain: Bool
        let text = "\(state)"
        if state.isConnected || text.contains("resumed") || text.contains("rejoined") {
            connectedAgain = noteConnected(rejoined: text.contains("rejoined"))
        } else {
            watch.withLock { w in
                w.lost = w.everConnected
                w.observed = true
            }
            connectedAgain = false
        }
        if connectedAgain { Task { await self.resyncAll() } }
    }

    private func noteConnected(rejoined: Bool) -> Bool {
        watch.withLock { w in
            defer {
                w.everConnected = true
                w.lost = false
                w.observed = true
            }
            return w.everConnected && (w.lost || rejoined)
        }
    }

    /// Re-connects every open object now and replaces its snapshot. The client does it by itself after every
    /// (re)connection that follows a loss; call it when a `RoomClient` reports `rejoined` (a rejoin is reported
    /// by the room client, not by the JSON-RPC client), so that `room:R/…` objects, refused until the session is in
    /// room R again, re-sync too. An object that fails is tried again after the next (re)connection.
    public func resyncAll() async {
        for object in openObjects {
            do {
                try await object.resync()
            } catch {
                logger.info("re-sync failed", metadata: ["object": "\(object.name)", "error": "\(error)"])
                watch.withLock { $0.lost = true }
            }
        }
    }
}
