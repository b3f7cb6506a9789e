/// A participant of a room and the node that holds it (``ClusterBackplane/members(of:)``).
public struct ClusterMember: Sendable, Hashable {
    /// Its name.
    public var user: String
    /// The node that holds its session.
    public var node: String
    /// Whether it publishes.
    public var publishing: Bool

    /// Creates a member.
    public init(user: String, node: String, publishing: Bool) {
        self.user = user
        self.node = node
        self.publishing = publishing
    }
}
