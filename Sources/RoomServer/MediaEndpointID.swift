public import RoomProtocol

/// Names one media endpoint of a room: whose it is and what it carries.
public struct MediaEndpointID: Sendable, Hashable, CustomStringConvertible {
    /// The room.
    public var room: String
    /// The participant the endpoint belongs to (who sends on a publisher, who receives on a subscriber).
    public var owner: String
    /// Which of the owner's endpoints: its publisher, or its subscription to another user.
    public var endpoint: RoomEndpoint

    /// Creates an endpoint name.
    public init(room: String, owner: String, endpoint: RoomEndpoint) {
        self.room = room
        self.owner = owner
        self.endpoint = endpoint
    }

    /// The `endpointName` the owner's `iceCandidate` notifications carry for this endpoint
    /// (docs/wire-protocol.md#room-notifications: the owner's own name for its publisher, the publisher's name for a
    /// subscription).
    public var endpointName: String { endpoint.endpointName(ownName: owner) }

    public var description: String {
        switch endpoint {
        case .publisher: "\(room)/\(owner) publisher"
        case .subscriber(let user): "\(room)/\(owner) receiving \(user)"
        }
    }
}
