/// Which of a participant's media endpoints an `endpointName` denotes (docs/wire-protocol.md#room-requests,
/// `onIceCandidate` and `iceCandidate`): the participant's own name is its publisher endpoint, another user's name is
/// its subscription to that user. Endpoint names are plain user names, never `"<user>_webcam"`.
public enum RoomEndpoint: Sendable, Hashable {
    /// The owner's publisher endpoint.
    case publisher
    /// The owner's subscription to `user`'s stream.
    case subscriber(to: String)

    /// Resolves `endpointName` for the participant called `ownName`.
    public init(endpointName: String, ownName: String) {
        self = endpointName == ownName ? .publisher : .subscriber(to: endpointName)
    }

    /// The `endpointName` that denotes this endpoint of the participant called `ownName`.
    public func endpointName(ownName: String) -> String {
        switch self {
        case .publisher: ownName
        case .subscriber(let user): user
        }
    }
}
