import KurentoClient
import Logging
import RoomClusterCore
import RoomProtocol
import SignalingSupport

/// Rooms across a cluster (docs/kurento.md#cluster): one pipeline per room for every node, its KMS and id in Redis
/// (``/RoomClusterCore/ClusterBackplane/joinMedia(_:)``), each publisher's endpoint id there too, so that a subscriber
/// on one node is fed from a publisher on another; the last node to leave a room releases its pipeline. Trees stay on
/// the node that serves them.
extension KurentoMediaBackend {
    /// Shares rooms' media through `cluster` (``RoomServer`` calls it when it has both a cluster and this backend).
    func share(with cluster: any ClusterBackplane) {
        state.withLock { $0.cluster = cluster }
    }

    /// The cluster's node, when `scope` is shared through it.
    func cluster(for scope: MediaScope) -> (any ClusterBackplane)? {
        scope.kind == .room ? state.withLock { $0.cluster } : nil
    }

    /// A media error for a Redis failure: what Redis said (its address) goes to the log, not to the client.
    func clusterUnavailable(_ error: any Error, while doing: String) -> RoomError {
        logger.warning("cluster unavailable", metadata: ["while": "\(doing)", "error": "\(error)"])
        return RoomError(.mediaEndpoint, message: "cluster unavailable while \(doing)")
    }

    /// The cluster's name of `scope`.
    static func clusterScope(_ scope: MediaScope) -> String { "\(scope.kind.rawValue):\(scope.name)" }

    /// The pipeline another node recorded for `scope` (this node is then one of its users), or `nil`.
    func sharedPipeline(of scope: MediaScope, in cluster: any ClusterBackplane) async throws(RoomError)
        -> (Int, MediaPipeline)?
    {
        let record: ClusterPipelineRecord?
        do {
            record = try await cluster.joinMedia(Self.clusterScope(scope))
        } catch {
            throw clusterUnavailable(error, while: "finding the media of the \(scope)")
        }
        guard let record else { return nil }
        return try adopt(record, for: scope)
    }

    /// Records `pipeline` (on KMS `kms`) as `scope`'s, unless another node was first: then ours is released and theirs
    /// used.
    func claimPipeline(_ pipeline: MediaPipeline, kms: Int, for scope: MediaScope, in cluster: any ClusterBackplane)
        async throws(RoomError) -> (Int, MediaPipeline)
    {
        let ours = ClusterPipelineRecord(kms: clients[kms].name, id: pipeline.id)
        let recorded: ClusterPipelineRecord
        do {
            recorded = try await cluster.claimMedia(Self.clusterScope(scope), pipeline: ours)
        } catch {
            try? await pipeline.release()
            throw clusterUnavailable(error, while: "recording the media of the \(scope)")
        }
        guard recorded != ours else { return (kms, pipeline) }
        // Another node created one at the same time and recorded it first: one pipeline per room.
        try? await pipeline.release()
        return try adopt(recorded, for: scope)
    }

    /// The pipeline of a record, through this node's client of its KMS.
    private func adopt(_ record: ClusterPipelineRecord, for scope: MediaScope)
        throws(RoomError) -> (Int, MediaPipeline)
    {
        guard let kms = clients.firstIndex(where: { $0.name == record.kms }) else {
            throw RoomError(.mediaEndpoint, message: "the media of the \(scope) is on Kurento Media Server "
                + "\(record.kms), which this node is not configured with (give every node the same --kms list)")
        }
        return (kms, clients[kms].mediaPipeline(id: record.id))
    }

    /// This node stops using `scope`'s pipeline; the last live node releases it.
    func leaveShared(_ scope: MediaScope, in cluster: any ClusterBackplane) async {
        let record: ClusterPipelineRecord?
        do {
            record = try await cluster.leaveMedia(Self.clusterScope(scope))
        } catch {
            logger.warning("cluster unavailable while leaving the media of \(scope); KMS collects what nobody uses",
                           metadata: ["error": "\(error)"])
            return
        }
        guard let record, let kms = clients.firstIndex(where: { $0.name == record.kms }) else { return }
        do {
            try await clients[kms].release(record.id)
            logger.info("media pipeline released", metadata: ["scope": "\(scope)", "pipeline": "\(record.id)"])
        } catch {
            logger.warning("media pipeline release failed", metadata: ["scope": "\(scope)", "error": "\(error)"])
        }
    }

    /// The KMS endpoint of `publisher` in `scope` as another node recorded it, through `pipeline`'s client.
    func sharedPublisher(_ publisher: String, of scope: MediaScope, pipeline: MediaPipeline) async -> WebRtcEndpoint? {
        guard let cluster = cluster(for: scope),
              let id = try? await cluster.publisherEndpoint(user: publisher, scope: Self.clusterScope(scope)) else { return nil }
        return WebRtcEndpoint(id: id, client: pipeline.client)
    }

    /// Records (or, with `nil`, removes) `endpoint` as `user`'s publisher endpoint in `scope` for the other nodes.
    func recordPublisher(_ endpoint: WebRtcEndpoint, of user: String, in scope: MediaScope, present: Bool) async {
        guard let cluster = cluster(for: scope) else { return }
        let name = Self.clusterScope(scope)
        do {
            if present {
                try await cluster.setPublisherEndpoint(endpoint.id, user: user, scope: name)
            } else {
                try await cluster.removePublisherEndpoint(endpoint.id, user: user, scope: name)
            }
        } catch {
            logger.warning("cluster unavailable while recording a publisher's endpoint",
                           metadata: ["scope": "\(scope)", "user": "\(user)", "error": "\(error)"])
        }
    }

    /// Forgets `scope`'s recorded pipeline `id` in the cluster (KMS no longer has it).
    func forgetShared(_ scope: MediaScope, pipeline id: String) {
        guard let cluster = cluster(for: scope) else { return }
        Task { try? await cluster.forgetMedia(Self.clusterScope(scope), pipeline: id) }
    }
}
