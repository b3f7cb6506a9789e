import Foundation
public import SignalingSupport

/// A minimal Room server that behaves as a stock Kurento Room server does, written on raw TCP and
/// `JSONSerialization` (none of our own stack): the oracle of every "against stock Kurento" test
/// (docs/wire-protocol.md#stock-kurento). Each behaviour names, beside its code, the stock source it follows
/// (Kurento/kurento-room and the kurento-jsonrpc server of Kurento/kurento-java, now in Kurento/kurento).
///
/// - **no dedupe**: a request id seen again runs again (``runs`` counts every request as it arrives);
/// - **no replay**: a session resumes with `connect{sessionId}`, but notifications sent while it had no connection
///   are lost; no `connect` result carries `capabilities`;
/// - Room refusals are `RoomException`s (code, text, `data: {"sessionId"}`); anything else a handler throws is -1
///   `"<SimpleName>:<message>"` with a stack trace as `data` and no `sessionId`; an unknown method gets no reply;
/// - the socket closes after `leaveRoom`, and the session ends with it.
///
/// Room: `joinRoom`, `leaveRoom`, `publishVideo` (which waits for ``publishGate`` when one is set),
/// `unpublishVideo`, `receiveVideoFrom`, `unsubscribeFromVideo`, `onIceCandidate`, `sendMessage`, `customRequest`,
/// with their notifications; `ping`, `connect`. Requests run in arrival order on the connection's thread, except
/// `publishVideo`, which runs on a thread of its own. The SDP answer is the offer echoed: enough for signaling tests.
public final class StockKurentoRoomServer: Sendable {
    struct Session {
        var connection: Int?
        var user: String?
        var room: String?
        var publishing = false
        /// The users this session receives from.
        var receiving: Set<String> = []
    }

    struct State {
        var sessions: [String: Session] = [:]
        var peers: [Int: HostilePeer] = [:]
        var nextConnection = 0
    }

    /// What a request gets back.
    enum Answer {
        /// A result: an object gains `sessionId`; anything else is wrapped as `{"value", "sessionId"}`.
        case result(Any)
        /// A `RoomException` (Kurento/kurento-room `RoomException.Code`): `data` is `{"sessionId"}`.
        case roomError(Int, String)
        /// A Java exception no handler caught in `JsonRpcUserControl.<method>`: -1, `"<SimpleName>:<message>"`, a
        /// stack trace as `data`.
        case exception(type: String, message: String, method: String)
        /// Nothing at all.
        case noReply
    }

    let state = LockedValue(State())
    /// Serializes frame writes: notifications go out from other connections' threads.
    private let writeLock = NSLock()
    /// The requests received, by method, counted as they arrive and each run (a re-sent id counts and runs again);
    /// `ping` and `connect` are not counted.
    public let runs = LockedValue<[String: Int]>([:])
    /// When set, `publishVideo` blocks its connection's thread on it before answering (a slow media server).
    public let publishGate = LockedValue<BlockingGate?>(nil)
    private let listener = LockedValue<HostileWebSocketServer?>(nil)

    /// Starts listening on 127.0.0.1 on an ephemeral port.
    public init() throws {
        let server = try HostileWebSocketServer { [weak self] peer in try self?.serve(peer) }
        listener.withLock { $0 = server }
    }

    /// `ws://127.0.0.1:<port>/room`.
    public var url: String { listener.withLock { $0 }?.url("/room") ?? "" }
    /// The listening port.
    public var port: Int { listener.withLock { $0 }?.port ?? 0 }

    /// Stops listening and cuts every connection.
    public func stop() { listener.withLock { $0 }?.stop() }

    /// The users in `room`, sorted, with whether each publishes.
    public func members(of room: String) -> [String: Bool] {
        var members: [String: Bool] = [:]
        for session in (state.withLock { $0 }).sessions.values where session.room == room {
            if let user = session.user { members[user] = session.publishing }
        }
        return members
    }

    private func serve(_ peer: HostilePeer) throws {
        let connection = state.withLock { s -> Int in
            s.nextConnection += 1
            s.peers[s.nextConnection] = peer
            return s.nextConnection
        }
        var sessionID = UUID().uuidString
        state.withLock { $0.sessions[sessionID] = Session(connection: connection) }
        defer {
            // The session outlives its connection (it may be resumed); what is sent to it meanwhile is lost.
            state.withLock { s in
                s.peers[connection] = nil
                if s.sessions[sessionID]?.connection == connection { s.sessions[sessionID]?.connection = nil }
            }
        }
        while let text = try peer.nextText() {
            // Kurento/kurento `ProtocolManager.processMessage` parses each text as one JSON object
            // (`JsonUtils.fromJson(…, JsonObject.class)`): malformed JSON and batches throw there, and the WebSocket
            // handler only logs it. No reply.
            guard let message = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                  let method = message["method"] as? String
            else { continue }
            let id = message["id"]
            let params = Self.params(of: message)
            switch method {
            case "connect":
                sessionID = try connect(params, id: id, session: sessionID, connection: connection, on: peer)
                continue
            case "ping":
                // Kurento/kurento `ProtocolManager.processPingMessage`: `{"value": "pong"}`, with the request's own
                // `sessionId` (read from its params) and none when it had none; sent past the transaction, so
                // nothing injects the session's.
                var result: [String: Any] = ["value": "pong"]
                if let asked = params["sessionId"] { result["sessionId"] = asked }
                try send(peer, ["jsonrpc": "2.0", "id": id ?? NSNull(), "result": result])
                continue
            default:
                break
            }
            runs.withLock { $0[method, default: 0] += 1 }
            let session = sessionID
            // A media server works on a publication while the session's other requests go on (a slow one can then be
            // retried while it runs).
            if method == "publishVideo" {
                // (The request travels as text: a parsed one is not Sendable.)
                Thread.detachNewThread { [self] in _ = handle(text, session: session, on: peer) }
            } else if handle(text, session: session, on: peer) {
                // Kurento/kurento-room `DefaultNotificationRoomHandler.onParticipantLeft` ends with
                // `JsonRpcNotificationService.closeSession`: the socket closes after leaveRoom, the session with it.
                state.withLock { $0.sessions[session] = nil }
                return
            }
        }
    }

    /// Runs the Room request `text` for `session` and answers it on `peer`; returns whether the socket closes next.
    private func handle(_ text: String, session: String, on peer: HostilePeer) -> Bool {
        guard let message = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let method = message["method"] as? String
        else { return false }
        return run(method, Self.params(of: message), session: session) { [self] in
            try? answer($0, id: message["id"], session: session, on: peer)
        }
    }

    /// The params of a parsed request: empty when it has none.
    static func params(of message: [String: Any]) -> [String: Any] { message["params"] as? [String: Any] ?? [:] }

    /// Kurento/kurento `ProtocolManager.processReconnectMessage`. Returns the connection's session from now on.
    private func connect(_ params: [String: Any], id: Any?, session: String, connection: Int,
                         on peer: HostilePeer) throws -> String {
        guard let wanted = params["sessionId"] as? String else {
            // Without a sessionId: `"OK"` for the connection's session, the session injected (`{"value": "OK",
            // "sessionId"}`, as `JsonUtils.toJsonMessage` wraps a non-object result).
            try send(peer, ["jsonrpc": "2.0", "id": id ?? NSNull(), "result": ["value": "OK", "sessionId": session]])
            return session
        }
        let known = state.withLock { s -> Bool in
            guard s.sessions[wanted] != nil else { return false }
            if wanted != session { s.sessions[session] = nil }
            s.sessions[wanted]?.connection = connection
            return true
        }
        if known {
            try send(peer, ["jsonrpc": "2.0", "id": id ?? NSNull(),
                            "result": ["value": "reconnection successful", "sessionId": wanted]])
            return wanted
        }
        // `new ResponseError(40007, RECONNECTION_ERROR)`: no data, no sessionId.
        try send(peer, ["jsonrpc": "2.0", "id": id ?? NSNull(), "error": ["code": 40007, "message": "reconnection error"]])
        return session
    }

    /// Sends `answer` to request `id` of `session` on `peer`, shaped as the stock server shapes it.
    private func answer(_ answer: Answer, id: Any?, session: String, on peer: HostilePeer) throws {
        var message: [String: Any] = ["jsonrpc": "2.0", "id": id ?? NSNull()]
        switch answer {
        case .noReply:
            return
        case .result(let value):
            // Kurento/kurento `TransactionImpl.internalSendResponse` sets the session on the response and
            // `JsonUtils.toJsonMessage` injects it into the result, wrapping a non-object as `value`.
            var result = value as? [String: Any] ?? ["value": value]
            result["sessionId"] = session
            message["result"] = result
        case .roomError(let code, let text):
            // Kurento/kurento-room `JsonRpcNotificationService.sendErrorResponse` → `Transaction.sendError(code,
            // message, null)`; the transaction injects the session into `error.data` (`JsonUtils.toJsonMessage`).
            message["error"] = ["code": code, "message": text, "data": ["sessionId": session]]
        case .exception(let type, let text, let method):
            // Kurento/kurento `JsonRpcHandlerManager.handleRequest` catches what the handler throws and sends
            // `ResponseError.newFromException(e)` past the transaction: code -1, `getSimpleName() + ":" +
            // getMessage()`, `printStackTrace` as data, no sessionId.
            message["error"] = ["code": -1, "message": "\(type):\(text)",
                                "data": "java.lang.\(type): \(text)\n\tat org.kurento.room.rpc.JsonRpcUserControl"
                                    + ".\(method)(JsonRpcUserControl.java)\n"]
        }
        try send(peer, message)
    }

    /// Sends `method` to every connected session in `room` but `except`; a session without a connection misses it.
    func notify(_ room: String, except: String?, _ method: String, _ params: [String: Any]) {
        let targets = state.withLock { s in
            s.sessions.filter { $0.key != except && $0.value.room == room }.compactMap { $0.value.connection }
                .compactMap { s.peers[$0] }
        }
        for peer in targets { try? send(peer, ["jsonrpc": "2.0", "method": method, "params": params]) }
    }

    private func send(_ peer: HostilePeer, _ message: [String: Any]) throws {
        let data = try JSONSerialization.data(withJSONObject: message)
        writeLock.lock()
        defer { writeLock.unlock() }
        try peer.sendText(String(decoding: data, as: UTF8.self))
    }
}
