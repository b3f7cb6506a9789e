import RoomProtocol

extension RoomRequest {
    /// The request with the names it carries (the caller's own in `userMessage` and `roomMessage`, a private
    /// message's target, a `sender`, an `endpointName`) in their NFKC form, the form the server keeps names in
    /// (docs/wire-protocol.md#room-naming), so that a client may spell a name as it joined with it. `joinRoom`
    /// normalizes its own names as it validates them. A string longer than a name may be is left as it is: it
    /// names nobody, and it is not worth normalizing in the receive loop.
    var withNormalizedNames: RoomRequest {
        func name(_ text: String) -> String {
            text.utf8.count <= RoomNaming.maxNameBytes ? RoomNaming.normalized(text) : text
        }
        switch self {
        case .sendMessage(var params):
            params.userMessage = name(params.userMessage)
            params.roomMessage = name(params.roomMessage)
            return .sendMessage(params)
        case .sendPrivateMessage(var params):
            params.to = name(params.to)
            return .sendPrivateMessage(params)
        case .receiveVideoFrom(var params):
            params.sender = name(params.sender)
            return .receiveVideoFrom(params)
        case .unsubscribeFromVideo(var params):
            params.sender = name(params.sender)
            return .unsubscribeFromVideo(params)
        case .onIceCandidate(var candidate):
            candidate.endpointName = name(candidate.endpointName)
            return .onIceCandidate(candidate)
        case .joinRoom, .publishVideo, .unpublishVideo, .leaveRoom, .customRequest:
            return self
        }
    }
}
