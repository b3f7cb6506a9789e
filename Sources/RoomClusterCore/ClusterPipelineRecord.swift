/// Where a scope's media pipeline is, shared by the nodes of a cluster (``ClusterBackplane/claimMedia(_:pipeline:)``).
public struct ClusterPipelineRecord: Sendable, Hashable {
    /// The URL of the Kurento Media Server it lives on.
    public var kms: String
    /// Its KMS id.
    public var id: String

    /// Creates a record.
    public init(kms: String, id: String) {
        self.kms = kms
        self.id = id
    }
}
