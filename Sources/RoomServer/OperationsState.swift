import JSONRPCWebSocket
import SignalingSupport

/// What readiness depends on (docs/operations.md#readiness), and the second plain-HTTP listener, if any.
final class OperationsState: Sendable {
    /// Where the cluster stands, as ``RoomServer/startCluster()`` and the cluster's events tell.
    enum Cluster: Sendable, Hashable {
        /// No cluster is configured.
        case none
        /// Configured, not joined yet (``RoomServer/startCluster()`` has not succeeded).
        case joining
        /// Joined, Redis reachable.
        case available
        /// Joined, Redis unreachable since the subscriber lost it (the reason as it reported it).
        case unavailable(String)
        /// Left (shutdown).
        case left
    }

    private struct State {
        var shuttingDown = false
        /// The first ``RoomServer/shutdown()``'s drain, while it runs (a second call cancels it).
        var drain: Task<Void, Never>?
        var cluster: Cluster
        var listener: WebSocketServer?
    }

    private let state: LockedValue<State>

    init(clustered: Bool) {
        state = LockedValue(State(cluster: clustered ? .joining : .none))
    }

    /// Marks the start of a shutdown. The first call gets `drain` started and stored, and waits for it; a later call
    /// cancels a drain still running, and waits for nothing.
    func beginShutdown(drain: @escaping @Sendable () async -> Void) async {
        let (started, running) = state.withLock { s -> (Task<Void, Never>?, Task<Void, Never>?) in
            guard !s.shuttingDown else { return (nil, s.drain) }
            s.shuttingDown = true
            let task = Task { await drain() }
            s.drain = task
            return (task, nil)
        }
        running?.cancel()
        await started?.value
        state.withLock { $0.drain = nil }
    }

    /// Whether a shutdown has begun.
    var isShuttingDown: Bool { state.withLock { $0.shuttingDown } }

    /// Records where the cluster stands.
    func setCluster(_ cluster: Cluster) {
        state.withLock { $0.cluster = cluster }
    }

    /// `nil` when the server accepts joins; otherwise why not, in one line.
    var notReadyReason: String? {
        state.withLock { s in
            if s.shuttingDown { return "shutting down" }
            switch s.cluster {
            case .none, .available: return nil
            case .joining: return "cluster: not joined yet"
            case .unavailable(let reason): return "cluster: Redis unreachable (\(Self.oneLine(reason)))"
            case .left: return "cluster: left"
            }
        }
    }

    /// The second listener (``OperationsConfiguration/listener``), once started.
    var listener: WebSocketServer? { state.withLock { $0.listener } }

    func attach(_ listener: WebSocketServer) {
        state.withLock { $0.listener = listener }
    }

    /// Takes the listener out, to shut it down once.
    func detachListener() -> WebSocketServer? {
        state.withLock { s in
            defer { s.listener = nil }
            return s.listener
        }
    }

    /// `text` on one line: line breaks become spaces, and at most 200 characters.
    static func oneLine(_ text: String) -> String {
        let flat = String(text.map { $0.isNewline ? " " : $0 })
        return flat.count > 200 ? String(flat.prefix(200)) + "…" : flat
    }
}
