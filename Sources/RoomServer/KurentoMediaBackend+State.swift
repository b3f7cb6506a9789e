import KurentoClient
import RoomClusterCore

extension KurentoMediaBackend {
    /// What the backend holds for one room or tree.
    struct ScopeRecord: Sendable {
        /// The KMS (index into ``KurentoMediaBackend/clients``) whose pipeline serves the scope, once chosen.
        var kms: Int?
        var pipeline: PipelineState = .none
        /// Endpoints of the scope that exist or are being created: the pipeline stays while there are any.
        var users = 0
        /// The scope ended (``KurentoMediaBackend/release(scope:)``) while some of its endpoints were still being
        /// released, as when everyone leaves a room at once: the last of them takes the pipeline with it.
        var ended = false
    }

    enum PipelineState: Sendable {
        case none
        /// Being created (`token` tells this creation from a later one); everyone who needs it meanwhile waits for
        /// the same task.
        case creating(token: UInt64, Task<MediaPipeline, any Error>)
        case ready(MediaPipeline)
    }

    /// One creation of an endpoint (a name may be created again before its previous creation is released).
    struct EndpointRecord: Sendable {
        let creation: UInt64
        let kms: Int
        /// The KMS object, once created.
        var object: WebRtcEndpoint?
    }

    struct State {
        var scopes: [MediaScope: ScopeRecord] = [:]
        /// Each endpoint's creations, oldest first.
        var endpoints: [MediaEndpointID: [EndpointRecord]] = [:]
        /// Numbers endpoint creations and pipeline creations.
        var nextCreation: UInt64 = 0
        var supervisors: [Task<Void, Never>] = []
        var shuttingDown = false
        /// With a cluster (``KurentoMediaBackend/share(with:)``): where rooms' pipelines and publishers' endpoints
        /// are recorded for every node.
        var cluster: (any ClusterBackplane)?
        /// The scopes this node counts as a user of in the cluster's records, until it leaves them.
        var shared: Set<MediaScope> = []

        /// One endpoint creation of `scope` is over (released, or abandoned after a failure). When it was the
        /// scope's last user and the scope has ended, the scope is forgotten and its pipeline returned, for the caller
        /// to release.
        mutating func endUse(of scope: MediaScope) -> MediaPipeline? {
            guard var record = scopes[scope] else { return nil }
            record.users -= 1
            guard record.users == 0, record.ended else {
                scopes[scope] = record
                return nil
            }
            scopes[scope] = nil
            if case .ready(let pipeline) = record.pipeline { return pipeline }
            return nil
        }

        /// Whether `creation` of `endpoint` still exists (events of released objects are dropped).
        func isCurrent(_ endpoint: MediaEndpointID, _ creation: UInt64) -> Bool {
            endpoints[endpoint]?.contains { $0.creation == creation } == true
        }
    }
}
