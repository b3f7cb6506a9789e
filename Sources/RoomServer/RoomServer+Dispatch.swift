import CoreMetrics
import JSONRPC
import JSONRPCWebSocket
import Logging
import RoomProtocol
import SignalingSupport

extension RoomServer {
    /// Decodes and runs one Room request. Room errors go out as their error objects (with the sessionId in
    /// `data`, docs/wire-protocol.md#kurento-conventions); bad params as -32602 naming the param
    /// (docs/wire-protocol.md#deviations).
    func dispatch(_ method: RoomMethod, params: JSONValue?, context: RPCRequestContext) async throws -> JSONValue? {
        let request = try admit(method, params: params, context: context)
        do {
            return try await handle(request, context: context)
        } catch let error as RoomError {
            throw refused(error, method: method, context: context)
        }
    }

    /// Runs one of the Room requests that only touch memory (``RoomMethod/isInline``: chat), inline in the
    /// receive loop (``/JSONRPC/JSONRPCServer/registerInline(_:_:)``).
    /// A message over ``RoomServerLimits/maxChatMessageBytes`` gets 999, and one past the session's
    /// ``RoomServerLimits/maxBroadcastBytesPerSecond`` -32000: both reach no one (docs/wire-protocol.md#limits).
    func dispatchInline(_ method: RoomMethod, params: JSONValue?, context: RPCRequestContext) throws -> JSONValue? {
        let request = try admit(method, params: params, context: context)
        let session = context.session
        let budget = { [broadcastBudget] (cost: Int) in broadcastBudget.spend(session.id, cost) }
        let delivered: [SessionOutbox]?
        do {
            switch request {
            case .sendMessage(let params):
                try checkChatSize(params.message)
                delivered = try registry.broadcast(params, session: session, within: budget)
            case .sendPrivateMessage(let params):
                try checkChatSize(params.message)
                delivered = try registry.sendPrivate(params, session: session, within: budget)
            default:
                preconditionFailure("\(method.rawValue) is not an inline method")
            }
        } catch {
            throw refused(error, method: method, context: context)
        }
        guard let delivered else { throw broadcastLimited }
        flush(delivered)
        return RoomResult.empty.json
    }

    private func checkChatSize(_ message: String) throws(RoomError) {
        let bytes = message.utf8.count, limit = configuration.limits.maxChatMessageBytes
        if bytes > limit {
            throw RoomError(.generic, message: "message of \(bytes) bytes exceeds the limit of \(limit) bytes")
        }
    }

    /// docs/wire-protocol.md#limits: -32000 "rate limited", saying which budget.
    private var broadcastLimited: RPCErrorObject {
        let limit = configuration.limits.maxBroadcastBytesPerSecond ?? 0
        return RPCErrorObject(code: -32000, message: "rate limited", data: .string(
            "chat fan-out over \(limit) bytes per second (message bytes × recipients): send again in a second"))
    }

    /// The rate limit, then the params: the request to run, or the error to answer with.
    private func admit(_ method: RoomMethod, params: JSONValue?, context: RPCRequestContext) throws -> RoomRequest {
        switch rateLimiter.admit(context.session.id) {
        case .allow: break
        case .refuse: throw Self.rateLimited
        case .refuseAndClose(let first):
            logger.warning("rate limit persists: closing", metadata: ["session": .string(context.session.redactedID)])
            if first { rateLimitCloses?.increment() }
            if let id = context.id { context.session.closeAfterReply(to: id, code: 1008, reason: "rate limited") }
            throw Self.rateLimited
        }
        do {
            return try RoomRequest(method: method, params: params).withNormalizedNames
        } catch {
            throw error.invalidParams
        }
    }

    private func refused(_ error: RoomError, method: RoomMethod, context: RPCRequestContext) -> RPCErrorObject {
        logger.debug("request refused", metadata: [
            "method": "\(method.rawValue)", "session": .string(context.session.redactedID), "error": "\(error)",
        ])
        return error.errorObject
    }

    private func handle(_ request: RoomRequest, context: RPCRequestContext) async throws -> JSONValue? {
        let session = context.session
        switch request {
        case .joinRoom(let params):
            return try await join(params, context: context)
        case .publishVideo(let params):
            return try await publish(params, context: context)
        case .unpublishVideo:
            // These change the room at once, then wait on the backend (and Redis): claimed first, so that a deadline
            // passing meanwhile cannot answer -32001 for what happened.
            try claim(context)
            await settle(try registry.unpublish(session: session))
            if let membership = registry.membership(of: session) {
                await markPublishing(false, membership.user, in: membership.room)
            }
        case .receiveVideoFrom(let params):
            return try await receive(params, context: context)
        case .unsubscribeFromVideo(let params):
            let sender = try Self.sender(params.sender, method: .unsubscribeFromVideo)
            try claim(context)
            if let endpoint = try registry.unsubscribe(session: session, from: sender) { await media.release(endpoint) }
        case .onIceCandidate(let candidate):
            if let endpoint = try registry.addCandidate(candidate, session: session) {
                try await Self.media { try await self.media.addCandidate(MediaCandidate(candidate), to: endpoint) }
            }
        case .leaveRoom:
            try claim(context)
            let membership = registry.membership(of: session)
            guard let departure = registry.remove(session: session, departure: .left) else {
                throw RoomRegistry.notJoined
            }
            // docs/wire-protocol.md#room: the reply goes out, then the server closes the socket (1000: clients do not
            // reconnect).
            if let id = context.id { session.closeAfterReply(to: id, code: 1000, reason: "left the room") }
            logger.info("participant left", metadata: ["session": .string(session.redactedID)])
            await settle(departure)
            if let membership {
                await offLoop { await revokeRoomObjects(of: session, room: membership.room, reason: "left the room") }
            }
        case .sendMessage, .sendPrivateMessage:
            preconditionFailure("\(request) runs inline (dispatchInline)")
        case .customRequest(let params):
            guard let hook = configuration.customRequest else {
                // docs/wire-protocol.md#room-errors: Kurento's default handler throws (Kurento/kurento-room
                // `JsonRpcUserControl.customRequest`), which its JSON-RPC layer answers with -1, the exception's simple
                // name and message, and its stack trace as `data` (`ResponseError.newFromException`); no sessionId.
                throw RoomError(.uncaughtException, message: "RuntimeException:Unsupported method",
                                data: .string(Self.unsupportedMethodTrace))
            }
            let membership = registry.membership(of: session)
            let custom = RoomCustomRequest(params: params, user: membership?.user, room: membership?.room,
                                           session: session)
            return try await offLoop { try await hook(custom) }
        }
        return RoomResult.empty.json
    }

    /// `joinRoom`: validate and normalize the names (docs/wire-protocol.md#room-naming), reserve the name before any
    /// `await`, ask the authorizer, then make it visible, unless the caller was told meanwhile that the join failed
    /// (docs/architecture.md#handler-deadlines): then the reservation and the cluster claim are given up again.
    private func join(_ params: JoinRoomParams, context: RPCRequestContext) async throws -> JSONValue {
        let session = context.session
        let user = try RoomNaming.normalizedUserName(params.user)
        guard !params.room.isEmpty else {
            throw RPCErrorObject.invalidParams("joinRoom params: 'room' must not be empty")
        }
        let room = try RoomNaming.normalizedRoomName(params.room)
        try registry.reserve(user: user, skeleton: RoomNaming.skeleton(user), room: room, session: session)
        let upgrade = (session.connection as? WebSocketMessageConnection)?.webSocket.request
        let attempt = RoomJoinAttempt(user: user, room: room, upgrade: upgrade)
        let refusal: RoomError?
        do {
            refusal = try await offLoop({ try await configuration.authorizeJoin(attempt) }) ? nil : .unauthorized
        } catch let error as RoomError {
            refusal = error
        } catch {
            refusal = .unauthorized
        }
        if let refusal {
            registry.cancelJoin(session: session)
            throw refusal
        }
        try await claimInCluster(user: user, room: room, session: session)
        let peers: [RoomParticipant], outboxes: [SessionOutbox]
        do {
            (peers, outboxes) = try registry.commitJoin(session: session, claimed: context.claimCompletion)
        } catch {
            // The room closed while joining, or the join's deadline passed: the name claimed in the cluster is given
            // up again.
            await giveUpClaim(user: user, room: room)
            throw error
        }
        logger.info("participant joined", metadata: [
            "room": "\(room)", "user": "\(user)", "session": .string(session.redactedID),
        ])
        flush(outboxes)
        return RoomResult.joined(peers).json
    }

    /// Claims the request's outcome (``/JSONRPC/RPCRequestContext/claimCompletion()``) right before a change that
    /// takes effect at once, with no `await` between, ahead of the waits that follow it
    /// (docs/architecture.md#handler-deadlines).
    func claim(_ context: RPCRequestContext) throws(RoomError) {
        guard context.claimCompletion() else { throw RoomRegistry.abandoned }
    }

    /// docs/wire-protocol.md#limits: -32000 "rate limited".
    static let rateLimited = RPCErrorObject(code: -32000, message: "rate limited")

    /// The `data` of the default `customRequest` refusal: a stack trace in the form Java's `printStackTrace` gives
    /// it, of the one frame that throws on a stock Kurento Room server (docs/wire-protocol.md#room-errors).
    static let unsupportedMethodTrace = "java.lang.RuntimeException: Unsupported method\n"
        + "\tat org.kurento.room.rpc.JsonRpcUserControl.customRequest(JsonRpcUserControl.java)\n"

    /// A `sender` as docs/wire-protocol.md#room-naming spells it, `<user>_<stream>`; anything else is a bad param
    /// (docs/wire-protocol.md#deviations), where Kurento answered -1.
    static func sender(_ wire: String, method: RoomMethod) throws -> StreamSender {
        guard let sender = StreamSender(wireValue: wire) else {
            throw RPCErrorObject.invalidParams("\(method.rawValue) params: 'sender' must be '<user>_<stream>'")
        }
        return sender
    }

    /// Runs a backend call; a backend error that is not a ``RoomError`` becomes 302 (MEDIA_SDP).
    static func media<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as RoomError {
            throw error
        } catch {
            throw RoomError(.mediaSDP, message: "media backend failed: \(error)")
        }
    }
}

extension RoomMethod {
    /// The Room requests the server answers inline, in the receive loop: they only touch memory (the room's
    /// members and their outboxes), never the media backend or application code.
    var isInline: Bool { self == .sendMessage || self == .sendPrivateMessage }
}
