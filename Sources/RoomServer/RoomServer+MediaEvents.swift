import Logging
import RoomProtocol

/// What the media backend reports after the fact (``MediaEvent``): candidates, failures, media flow.
extension RoomServer {
    /// The sink this server attaches to its backend (``MediaBackend/attach(_:)``).
    func mediaEventSink() -> MediaEventSink {
        MediaEventSink { [weak self] event in self?.handle(event) }
    }

    /// Applies one backend event. Candidates and flow reports are applied at once; failures release endpoints,
    /// which is asynchronous, so they run in a task of their own.
    func handle(_ event: MediaEvent) {
        switch event {
        case .candidate(let candidate, let endpoint):
            switch endpoint.scope.kind {
            case .room: flush([registry.deliverFound([candidate], of: endpoint)])
            case .tree: flush([treeRegistry.deliverFound([candidate], of: endpoint)])
            }
        case .flow(let endpoint, let flow):
            if endpoint.scope.kind == .room { registry.recordFlow(flow, on: endpoint) }
        case .endpointFailed(let endpoint, let reason):
            logger.warning("media endpoint failed", metadata: ["endpoint": "\(endpoint)", "reason": "\(reason)"])
            Task { await self.dropFailed([endpoint], in: endpoint.scope, reason: reason) }
        case .scopeFailed(let scope, let reason):
            logger.warning("media failed", metadata: ["scope": "\(scope)", "reason": "\(reason)"])
            Task { await self.dropFailed(nil, in: scope, reason: reason) }
        }
    }

    /// Drops the failed endpoints of `scope` (every one when `failed` is `nil`), tells their owners with `mediaError`
    /// (docs/wire-protocol.md#media-errors) and releases them at the backend.
    func dropFailed(_ failed: Set<MediaEndpointID>?, in scope: MediaScope, reason: String) async {
        switch scope.kind {
        case .room:
            await settle(registry.dropFailed(failed, in: scope.name, reason: reason))
        case .tree:
            let (released, outboxes) = treeRegistry.dropFailed(failed, in: scope.name, reason: reason)
            flush(outboxes)
            for endpoint in released { await media.release(endpoint) }
        }
    }
}
