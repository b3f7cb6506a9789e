public import JSONRPC
public import RoomProtocol
public import SDP

/// The completion-closure faces of ``connect()`` and ``disconnect()`` (`connect(completion:)`,
/// `disconnect(completion:)`) come with ``/JSONRPC/SignalingClient``.
extension RoomClient: SignalingClient {}

/// The completion-closure face: each method starts the async call and runs `completion` exactly once, on no
/// particular thread, with the result or the error (``/RoomProtocol/RoomError`` or ``/JSONRPC/RPCError``).
extension RoomClient {
    /// Completion-closure face of ``join(dataChannels:)``.
    public func join(dataChannels: Bool = false, completion: @escaping @Sendable (Result<[Peer], any Error>) -> Void) {
        complete(completion) { try await self.join(dataChannels: dataChannels) }
    }

    /// Completion-closure face of ``leave()``.
    public func leave(completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        complete(completion) { try await self.leave() }
    }

    /// Completion-closure face of ``publishVideo(sdpOffer:loopback:)``: the result is the server's SDP answer.
    public func publishVideo(sdpOffer: String, loopback: Bool = false,
                             completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
        complete(completion) { try await self.publishVideo(sdpOffer: sdpOffer, loopback: loopback) }
    }

    /// Completion-closure face of ``unpublishVideo()``.
    public func unpublishVideo(completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        complete(completion) { try await self.unpublishVideo() }
    }

    /// Completion-closure face of ``receiveVideo(from:sdpOffer:streamId:)``.
    public func receiveVideo(from peer: Peer, sdpOffer: String, streamId: String? = nil,
                             completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
        complete(completion) { try await self.receiveVideo(from: peer, sdpOffer: sdpOffer, streamId: streamId) }
    }

    /// Completion-closure face of ``unsubscribe(from:streamId:)``.
    public func unsubscribe(from peer: Peer, streamId: String? = nil,
                            completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        complete(completion) { try await self.unsubscribe(from: peer, streamId: streamId) }
    }

    /// Completion-closure face of ``sendICECandidate(_:for:)``.
    public func sendICECandidate(_ candidate: IceCandidate, for endpoint: RoomEndpoint,
                                 completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        complete(completion) { try await self.sendICECandidate(candidate, for: endpoint) }
    }

    /// Completion-closure face of ``sendMessage(_:)``.
    public func sendMessage(_ message: String, completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        complete(completion) { try await self.sendMessage(message) }
    }

    /// Completion-closure face of ``sendPrivateMessage(_:to:)``.
    public func sendPrivateMessage(_ message: String, to user: String,
                                   completion: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        complete(completion) { try await self.sendPrivateMessage(message, to: user) }
    }

    /// Completion-closure face of ``customRequest(_:)``.
    public func customRequest(_ params: JSONValue,
                              completion: @escaping @Sendable (Result<JSONValue, any Error>) -> Void) {
        complete(completion) { try await self.customRequest(params) }
    }
}
