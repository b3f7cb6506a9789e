import JSONRPC
import RoomProtocol
import SignalingSupport

/// What a media backend reports after the fact (``MediaEvent``), applied to the trees.
extension TreeRegistry {
    /// The tree endpoint a media endpoint of tree scope names.
    static func treeEndpoint(_ endpoint: MediaEndpointID) -> TreeEndpoint? {
        if endpoint.owner == MediaEndpointID.treeSourceOwner { return .source }
        let prefix = "_sink_"
        guard endpoint.owner.hasPrefix(prefix) else { return nil }
        return .sink(String(endpoint.owner.dropFirst(prefix.count)))
    }

    /// The session id that owns `endpoint` of `tree` while it is being created or exists: the tree's owner for the
    /// source, the sink's adder for a sink.
    private static func owner(of endpoint: TreeEndpoint, in tree: Tree) -> String? {
        switch endpoint {
        case .source: tree.source == nil ? nil : tree.owner
        case .sink(let sinkId): tree.sinks[sinkId]?.owner
        }
    }

    /// Queues server candidates of `endpoint` found after its `create…` call returned, while the endpoint is being
    /// created or exists.
    func deliverFound(_ candidates: [MediaCandidate], of endpoint: MediaEndpointID) -> SessionOutbox? {
        guard let treeEndpoint = Self.treeEndpoint(endpoint) else { return nil }
        return state.withLock { trees -> SessionOutbox? in
            guard let tree = trees[endpoint.room], let owner = Self.owner(of: treeEndpoint, in: tree),
                  let outbox = outboxes.withLock({ $0[owner] }) else { return nil }
            for candidate in candidates {
                outbox.enqueue(TreeNotification.iceCandidate(TreeIceCandidate(
                    treeId: endpoint.room, endpoint: treeEndpoint, candidate: candidate.candidate,
                    sdpMid: candidate.sdpMid, sdpMLineIndex: candidate.sdpMLineIndex)))
            }
            return outbox
        }
    }

    /// Drops tree endpoints the backend reports failed (docs/wire-protocol.md#media-errors): `failed` of tree `id`, or
    /// all of them when `nil`. A failed source takes every sink with it (they were fed from it); each owner of an
    /// endpoint that existed gets `mediaError {treeId, sinkId?, error}`. Returns the endpoints to release and the
    /// outboxes to flush.
    func dropFailed(_ failed: Set<MediaEndpointID>?, in id: String, reason: String)
        -> (released: [MediaEndpointID], flush: [SessionOutbox])
    {
        state.withLock { trees in
            guard var tree = trees[id] else { return ([], []) }
            var released: [MediaEndpointID] = []
            var errors: [(owner: String, endpoint: TreeEndpoint)] = []
            let sourceFails = failed?.contains(.treeSource(id)) ?? true
            if sourceFails, let source = tree.source {
                tree.source = nil
                if source == .ready {
                    released.append(.treeSource(id))
                    errors.append((tree.owner, .source))
                }
            }
            for sinkId in tree.sinkOrder {
                guard let sink = tree.sinks[sinkId],
                      sourceFails || failed?.contains(.treeSink(sinkId, of: id)) ?? true else { continue }
                tree.sinks[sinkId] = nil
                if sink.phase == .ready {
                    released.append(.treeSink(sinkId, of: id))
                    errors.append((sink.owner, .sink(sinkId)))
                }
            }
            tree.sinkOrder.removeAll { tree.sinks[$0] == nil }
            trees[id] = tree
            var flush: [SessionOutbox] = []
            for (owner, endpoint) in errors {
                guard let outbox = outboxes.withLock({ $0[owner] }) else { continue }
                outbox.enqueue(TreeNotification.mediaError(TreeMediaError(treeId: id, endpoint: endpoint, error: reason)))
                flush.append(outbox)
            }
            return (released, flush)
        }
    }
}

extension TreeRegistry {
    /// Takes every endpoint the backend created out of the trees, for a shutdown that releases them: the trees stay,
    /// without media. Returns the endpoints and the tree ids.
    func takeAllMedia() -> (endpoints: [MediaEndpointID], trees: [String]) {
        state.withLock { trees in
            var endpoints: [MediaEndpointID] = []
            for (id, var tree) in trees {
                endpoints += tree.readyEndpoints(id)
                if tree.source == .ready { tree.source = nil }
                for sinkId in tree.sinkOrder where tree.sinks[sinkId]?.phase == .ready { tree.sinks[sinkId] = nil }
                tree.sinkOrder.removeAll { tree.sinks[$0] == nil }
                trees[id] = tree
            }
            return (endpoints, Array(trees.keys))
        }
    }
}
