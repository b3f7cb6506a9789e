import Foundation
import JSONRPC
import RoomProtocol
import SignalingSupport

/// Every tree of a ``RoomServer``, with who may act on it (docs/architecture.md#identity: identity comes from the
/// session).
///
/// The session that creates a tree owns it: only it may set or remove the source, trickle the source's candidates,
/// and release the tree. Any session may add sinks; a sink is its adder's (the tree's owner may remove it too).
/// Checks and reservations happen synchronously under one lock before any `await` (docs/architecture.md#identity,
/// re-entrancy); the media backend is called outside it, and an endpoint whose tree or sink went away meanwhile is
/// released.
///
/// Each session's `iceCandidate` notifications go through its ``SessionOutbox`` (taken under the trees' lock,
/// after it), so that they wait for a session in its reconnection window as Room's do
/// (docs/architecture.md#server-sessions).
final class TreeRegistry: Sendable {
    enum Phase: Sendable, Hashable { case creating, ready }

    struct Sink: Sendable {
        var owner: String
        var phase: Phase
    }

    struct Tree: Sendable {
        var owner: String
        var source: Phase?
        var sinks: [String: Sink] = [:]
        var sinkOrder: [String] = []

        /// The endpoints that exist at the backend.
        func readyEndpoints(_ id: String) -> [MediaEndpointID] {
            (source == .ready ? [MediaEndpointID.treeSource(id)] : [])
                + sinkOrder.filter { sinks[$0]?.phase == .ready }.map { MediaEndpointID.treeSink($0, of: id) }
        }
    }

    let state = LockedValue([String: Tree]())
    /// The outboxes, by session id: made when a session reserves an endpoint (a media server may find candidates
    /// while the endpoint is created, ``deliverFound(_:of:)``), forgotten when the session ends.
    let outboxes = LockedValue([String: SessionOutbox]())
    private let limits: RoomServerLimits

    init(limits: RoomServerLimits) { self.limits = limits }

    /// Runs `body` on tree `id`, writing it back; unknown → 2.
    private func withTree<T>(_ id: String, _ body: (inout Tree) throws(TreeError) -> T) throws(TreeError) -> T {
        try state.withLock { (trees: inout [String: Tree]) throws(TreeError) -> T in
            guard var tree = trees[id] else { throw TreeError.unknownTree(id) }
            let result = try body(&tree)
            trees[id] = tree
            return result
        }
    }

    /// Creates a tree owned by `session`, with `id` or a generated one; returns the id.
    func create(_ id: String?, session: ServerSession) throws(TreeError) -> String {
        try state.withLock { (trees: inout [String: Tree]) throws(TreeError) -> String in
            let id = id ?? UUID().uuidString.lowercased()
            if trees[id] != nil { throw TreeError.existingTree(id) }
            if let max = limits.maxTrees, trees.count >= max {
                throw TreeError(.treeException, message: "too many trees (limit \(max))")
            }
            trees[id] = Tree(owner: session.id)
            return id
        }
    }

    /// Removes tree `id` (its owner only); returns the endpoints to release.
    func release(_ id: String, session: ServerSession) throws(TreeError) -> [MediaEndpointID] {
        try state.withLock { (trees: inout [String: Tree]) throws(TreeError) -> [MediaEndpointID] in
            guard let tree = trees[id] else { throw TreeError.unknownTree(id) }
            guard tree.owner == session.id else { throw TreeError.notOwner("Tree '\(id)'") }
            trees[id] = nil
            return tree.readyEndpoints(id)
        }
    }

    /// Reserves the source of tree `id` (its owner only; none set yet).
    func beginSource(_ id: String, session: ServerSession) throws(TreeError) {
        try withTree(id) { (tree: inout Tree) throws(TreeError) in
            guard tree.owner == session.id else { throw TreeError.notOwner("Tree '\(id)'") }
            guard tree.source == nil else { throw TreeError.existingSource(id) }
            tree.source = .creating
            // The outbox exists before the backend answers: a media server's candidates may come first.
            queue([], to: session)
        }
    }

    /// Marks the reserved source ready and queues `notifications` to `session` at the same time (the owner's
    /// session: it reserved the source); `false` when the tree was released meanwhile.
    func finishSource(_ id: String, queueing notifications: [TreeNotification], to session: ServerSession) -> Bool {
        (try? withTree(id) { (tree: inout Tree) throws(TreeError) -> Bool in
            guard tree.source == .creating else { return false }
            tree.source = .ready
            queue(notifications, to: session)
            return true
        }) ?? false
    }

    /// Drops the reserved source after the backend failed.
    func abandonSource(_ id: String) {
        _ = try? withTree(id) { (tree: inout Tree) throws(TreeError) in
            if tree.source == .creating { tree.source = nil }
        }
    }

    /// Removes the source of tree `id` (its owner only; it must be set); returns its endpoint.
    func removeSource(_ id: String, session: ServerSession) throws(TreeError) -> MediaEndpointID {
        try withTree(id) { (tree: inout Tree) throws(TreeError) -> MediaEndpointID in
            guard tree.owner == session.id else { throw TreeError.notOwner("Tree '\(id)'") }
            guard tree.source == .ready else { throw TreeError.noSource(id) }
            tree.source = nil
            return .treeSource(id)
        }
    }

    /// Reserves a new sink of tree `id` for `session` (the source must be set); returns its id.
    func beginSink(_ id: String, session: ServerSession) throws(TreeError) -> String {
        try withTree(id) { (tree: inout Tree) throws(TreeError) -> String in
            guard tree.source == .ready else { throw TreeError.noSource(id) }
            if let max = limits.maxSinksPerTree, tree.sinks.count >= max {
                throw TreeError(.treeException, message: "tree '\(id)' is full (limit \(max) sinks)")
            }
            let sinkId = UUID().uuidString.lowercased()
            tree.sinks[sinkId] = Sink(owner: session.id, phase: .creating)
            tree.sinkOrder.append(sinkId)
            queue([], to: session)
            return sinkId
        }
    }

    /// Marks a reserved sink ready and queues `notifications` to `session` at the same time (the sink's adder);
    /// `false` when it or its tree went away meanwhile.
    func finishSink(_ sinkId: String, of id: String, queueing notifications: [TreeNotification],
                    to session: ServerSession) -> Bool {
        (try? withTree(id) { (tree: inout Tree) throws(TreeError) -> Bool in
            guard tree.sinks[sinkId]?.phase == .creating else { return false }
            tree.sinks[sinkId]?.phase = .ready
            queue(notifications, to: session)
            return true
        }) ?? false
    }

    /// Queues `notifications` in the outbox of `session`, made if it has none (also for none: candidates a media
    /// server finds while the endpoint is created, or later, go there). Called under the trees' lock, so a session that ended (``endSession(_:)`` takes
    /// it too) never gets an outbox again.
    private func queue(_ notifications: [TreeNotification], to session: ServerSession) {
        outboxes.withLock { outboxes in
            let outbox = outboxes[session.id]
                ?? SessionOutbox(roomServerSession: session, limit: limits.maxQueuedNotifications)
            outboxes[session.id] = outbox
            for notification in notifications { outbox.enqueue(notification) }
        }
    }

    /// The outbox of `session`, if it was ever sent a notification.
    func outbox(of session: ServerSession) -> SessionOutbox? {
        outboxes.withLock { $0[session.id] }
    }

    /// Drops a reserved sink after the backend failed.
    func abandonSink(_ sinkId: String, of id: String) {
        _ = try? withTree(id) { (tree: inout Tree) throws(TreeError) in
            tree.sinks[sinkId] = nil
            tree.sinkOrder.removeAll { $0 == sinkId }
        }
    }

    /// Removes sink `sinkId` of tree `id` (its adder or the tree's owner); returns its endpoint.
    func removeSink(_ sinkId: String, of id: String, session: ServerSession) throws(TreeError) -> MediaEndpointID {
        try withTree(id) { (tree: inout Tree) throws(TreeError) -> MediaEndpointID in
            guard let sink = tree.sinks[sinkId], sink.phase == .ready else {
                throw TreeError.unknownSink(sinkId, treeId: id)
            }
            guard sink.owner == session.id || tree.owner == session.id else {
                throw TreeError.notOwner("Sink '\(sinkId)'")
            }
            tree.sinks[sinkId] = nil
            tree.sinkOrder.removeAll { $0 == sinkId }
            return .treeSink(sinkId, of: id)
        }
    }

    /// The endpoint a client candidate of `session` goes to: the source (the tree's owner only) or the caller's
    /// own sink; it must be ready.
    func candidateTarget(_ endpoint: TreeEndpoint, of id: String, session: ServerSession)
        throws(TreeError) -> MediaEndpointID
    {
        try withTree(id) { (tree: inout Tree) throws(TreeError) -> MediaEndpointID in
            switch endpoint {
            case .source:
                guard tree.owner == session.id else { throw TreeError.notOwner("Tree '\(id)'") }
                guard tree.source == .ready else { throw TreeError.noSource(id) }
            case .sink(let sinkId):
                guard let sink = tree.sinks[sinkId], sink.phase == .ready else {
                    throw TreeError.unknownSink(sinkId, treeId: id)
                }
                guard sink.owner == session.id else { throw TreeError.notOwner("Sink '\(sinkId)'") }
            }
            return .tree(id, endpoint)
        }
    }

    /// Forgets an ended session: its trees are released and its sinks removed. Returns the endpoints to release and
    /// the trees that ended (their media scope is released after the endpoints).
    func endSession(_ session: ServerSession) -> (endpoints: [MediaEndpointID], trees: [String]) {
        state.withLock { trees in
            outboxes.withLock { _ = $0.removeValue(forKey: session.id) }
            var released: [MediaEndpointID] = []
            var ended: [String] = []
            for (id, var tree) in trees {
                if tree.owner == session.id {
                    released += tree.readyEndpoints(id)
                    trees[id] = nil
                    ended.append(id)
                    continue
                }
                let mine = tree.sinkOrder.filter { tree.sinks[$0]?.owner == session.id }
                guard !mine.isEmpty else { continue }
                for sinkId in mine {
                    if tree.sinks[sinkId]?.phase == .ready { released.append(.treeSink(sinkId, of: id)) }
                    tree.sinks[sinkId] = nil
                }
                tree.sinkOrder.removeAll { mine.contains($0) }
                trees[id] = tree
            }
            return (released, ended)
        }
    }

    /// Every tree: whether its source is set and its ready sinks.
    var snapshot: [String: TreeState] {
        state.withLock { trees in
            trees.mapValues { tree in
                TreeState(hasSource: tree.source == .ready,
                          sinks: tree.sinkOrder.filter { tree.sinks[$0]?.phase == .ready })
            }
        }
    }
}
