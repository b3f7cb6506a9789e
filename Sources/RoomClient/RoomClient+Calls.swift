public import JSONRPC
public import RoomProtocol
public import SDP
import SignalingSupport

extension RoomClient {
    /// Opens the connection, unless connected already. Calls connect on their own, so this is optional.
    /// - Throws: ``/JSONRPC/RPCError/connectionClosed(_:)`` with the transport's reason.
    public func connect() async throws {
        try await rpc.connect()
    }

    /// Closes the connection (a user-initiated close). Every pending call completes, exactly once, with
    /// ``/JSONRPC/RPCError/connectionClosed(_:)``; the peers model empties. It does not send `leaveRoom`: the
    /// server evicts a participant whose socket closed (docs/wire-protocol.md#room).
    public func disconnect() async {
        await rpc.close(code: 1000, reason: "client disconnected")
    }

    /// Joins the room (`joinRoom`) and returns the participants already in it, without the local user.
    /// - Parameter dataChannels: Whether the client wants data channels.
    /// - Throws: ``/RoomProtocol/RoomError``, e.g. 104 when the name is taken, or 999 before sending anything
    ///   when ``Room/username`` is not a valid name; ``/JSONRPC/RPCError`` for transport failures.
    @discardableResult
    public func join(dataChannels: Bool = false) async throws -> [Peer] {
        try RoomNaming.validateUserName(room.username)
        let params = JoinRoomParams(user: room.username, room: room.name, dataChannels: dataChannels)
        return try await request(.joinRoom(params)) { result, s in
            guard case .joined(let participants) = result else { return [] }
            s.recovery.joined(params)
            return s.model.join(participants)
        }
    }

    /// Leaves the room (`leaveRoom`). The peers model empties, and the PeerManager connections of the media
    /// negotiated through one (``publish(using:loopback:)``) are closed; the server then closes the connection.
    public func leave() async throws {
        try await request(.leaveRoom) { _, s in
            s.model.reset()
            s.recovery.forget()
            if let media = s.media.peerManager { self.closeMedia(s.media.reset(), of: media) }
        }
    }

    /// Publishes the local stream (`publishVideo`) and returns the server's SDP answer (NBMRoomClient's delegate
    /// got the offer back, docs/wire-protocol.md#room-client-bugs, bug 1).
    /// - Parameters:
    ///   - sdpOffer: The local SDP offer.
    ///   - loopback: Whether the server should send the stream back to the publisher.
    public func publishVideo(sdpOffer: String, loopback: Bool = false) async throws -> String {
        let params = PublishVideoParams(sdpOffer: sdpOffer, doLoopback: loopback)
        return try await request(.publishVideo(params)) { result, s in
            s.model.localStreams = [RoomNaming.defaultStreamId]
            s.recovery.published(loopback: loopback)
            guard case .sdpAnswer(let answer) = result else { return "" }
            return answer
        }
    }

    /// Stops publishing (`unpublishVideo`). A publication made through a PeerManager (``publish(using:loopback:)``)
    /// has its connection closed, so that the same PeerManager can publish again.
    public func unpublishVideo() async throws {
        try await request(.unpublishVideo) { _, s in
            s.model.localStreams = []
            s.recovery.unpublished()
            if s.media.published, let media = s.media.peerManager {
                s.media.published = false
                self.closeMedia([.publisher], of: media)
            }
        }
    }

    /// Subscribes to `peer`'s stream (`receiveVideoFrom`) and returns the server's SDP answer.
    /// - Parameters:
    ///   - peer: The publishing participant.
    ///   - sdpOffer: The local SDP offer for the subscription (receive-only).
    ///   - streamId: The stream; default the peer's first, or `webcam`.
    public func receiveVideo(from peer: Peer, sdpOffer: String, streamId: String? = nil) async throws -> String {
        let params = ReceiveVideoFromParams(sender: sender(of: peer, streamId: streamId), sdpOffer: sdpOffer)
        return try await request(.receiveVideoFrom(params)) { result, s in
            s.recovery.subscribed(to: peer.identifier)
            guard case .sdpAnswer(let answer) = result else { return "" }
            return answer
        }
    }

    /// Ends the subscription to `peer`'s stream (`unsubscribeFromVideo`). The server answers `{}`, which is
    /// success (NBMRoomClient wanted an sdpAnswer and always failed, docs/wire-protocol.md#room-client-bugs, bug 2).
    /// A subscription made through a PeerManager (``subscribe(to:using:)``) is forgotten and its connection closed.
    public func unsubscribe(from peer: Peer, streamId: String? = nil) async throws {
        let params = UnsubscribeFromVideoParams(sender: sender(of: peer, streamId: streamId))
        try await request(.unsubscribeFromVideo(params)) { _, s in
            s.recovery.unsubscribed(from: peer.identifier)
            if s.media.subscribed.remove(peer.identifier) != nil, let media = s.media.peerManager {
                self.closeMedia([.subscriber(to: peer.identifier)], of: media)
            }
        }
    }

    /// Trickles one local ICE candidate (`onIceCandidate`) for `endpoint`: ``/RoomProtocol/RoomEndpoint/publisher``
    /// for the published stream, ``/RoomProtocol/RoomEndpoint/subscriber(to:)`` for a subscription. A missing
    /// `sdpMid` is sent as `""` and a missing `sdpMLineIndex` as 0, as NBMRoomClient did.
    public func sendICECandidate(_ candidate: IceCandidate, for endpoint: RoomEndpoint) async throws {
        let wire = RoomIceCandidate(endpointName: endpoint.endpointName(ownName: room.username),
                                    candidate: candidate.candidate, sdpMid: candidate.sdpMid ?? "",
                                    sdpMLineIndex: candidate.sdpMLineIndex ?? 0)
        try await request(.onIceCandidate(wire)) { _, _ in }
    }

    /// Sends a chat message to the whole room (`sendMessage`); the local user gets it back as an event too.
    public func sendMessage(_ message: String) async throws {
        let params = SendMessageParams(message: message, userMessage: room.username, roomMessage: room.name)
        try await request(.sendMessage(params)) { _, _ in }
    }

    /// Sends a message to one participant (`sendPrivateMessage`, our extension: a stock Kurento server never
    /// answers it, so the call times out there).
    /// - Throws: ``/RoomProtocol/RoomError`` 102 when there is no such participant.
    public func sendPrivateMessage(_ message: String, to user: String) async throws {
        try await request(.sendPrivateMessage(SendPrivateMessageParams(to: user, message: message))) { _, _ in }
    }

    /// Sends an application-defined request (`customRequest`) and returns its result without Kurento's
    /// `sessionId`/`value` wrapping. A stock server answers -1 "Unsupported method" (a ``/RoomProtocol/RoomError``).
    public func customRequest(_ params: JSONValue) async throws -> JSONValue {
        try await request(.customRequest(params)) { result, _ in
            guard case .custom(let value) = result else { return .null }
            return value
        }
    }

    /// Sends an application-defined request (`customRequest`) with Encodable params and decodes its result as `R`
    /// (without Kurento's `sessionId`/`value` wrapping; ``/JSONRPC/EmptyResult`` for a result that does not matter):
    ///
    /// ```swift
    /// let pong = try await client.customRequest(Ping(text: "ping"), as: Pong.self)
    /// ```
    /// - Throws: ``/RoomProtocol/RoomError`` as ``customRequest(_:)``; ``/JSONRPC/RPCError/encodingFailed(_:)`` when
    ///   the params do not encode, ``/JSONRPC/RPCError/invalidResponse(_:)`` when the result does not decode as `R`.
    public func customRequest<P: Encodable, R: Decodable>(_ params: P, as type: R.Type = R.self) async throws -> R {
        let json: JSONValue
        do { json = try JSONValue(encoding: params) } catch { throw RPCError.encodingFailed("\(error)") }
        let result = try await customRequest(json)
        do {
            return try result.decode(as: R.self)
        } catch {
            throw RPCError.invalidResponse("customRequest result \(result.redactingSessionIds.jsonText.prefix(200)) does not decode as \(R.self)")
        }
    }

    /// `peer`'s stream `streamId`, by default its first stream or `webcam`.
    private func sender(of peer: Peer, streamId: String?) -> StreamSender {
        StreamSender(user: peer.identifier, streamId: streamId ?? peer.streams.first ?? RoomNaming.defaultStreamId)
    }

    /// Sends `request`; `apply` runs on its decoded result, under the lock and in wire order
    /// (docs/architecture.md#callbacks).
    @discardableResult
    func request<T: Sendable>(
        _ request: RoomRequest, apply: @escaping @Sendable (RoomResult, inout State) -> T
    ) async throws -> T {
        let method = request.method
        do {
            return try await rpc.call(method.rawValue, params: request.params) { json in
                let result = try RoomResult(method: method, result: json)
                return self.state.withLock { apply(result, &$0) }
            }
        } catch let error as RPCError {
            throw RoomError(error) ?? error
        }
    }
}
