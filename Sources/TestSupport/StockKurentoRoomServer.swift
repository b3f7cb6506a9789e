import Foundation
import SignalingSupport

/// A minimal Room server that behaves as a stock Kurento Room server does where ours deliberately differs
/// (docs/wire-protocol.md#stock-kurento), written on raw TCP and `JSONSerialization` (none of our own stack):
///
/// - **no dedupe**: a request id seen again runs again (``runs`` counts every request as it arrives);
/// - **no replay**: a session resumes with `connect{sessionId}`, but notifications sent while it had no connection
///   are lost; its `connect` result carries no `capabilities`;
/// - errors are `-1` with a Java exception's text (104 for a name already in the room, as Kurento's RoomException);
/// - the socket closes after `leaveRoom`, and the session ends with it.
///
/// Room: `joinRoom`, `leaveRoom`, `publishVideo` (which waits for ``publishGate`` when one is set),
/// `unpublishVideo`, `receiveVideoFrom`, `onIceCandidate`, `sendMessage`, with their notifications; `ping`. Requests
/// run in arrival order on the connection's thread, except `publishVideo`, which runs on a thread of its own.
/// The SDP answer is the offer echoed: enough for signaling tests.
public final class StockKurentoRoomServer: Sendable {
    struct Session {
        var connection: Int?
        var user: String?
        var room: String?
        var publishing = false
    }

    struct State {
        var sessions: [String: Session] = [:]
        var peers: [Int: HostilePeer] = [:]
        var nextConnection = 0
    }

    private let state = LockedBox(State())
    /// Serializes frame writes: notifications go out from other connections' threads.
    private let writeLock = NSLock()
    /// The requests received, by method, counted as they arrive and each run (a re-sent id counts and runs again).
    public let runs = LockedBox<[String: Int]>([:])
    /// When set, `publishVideo` blocks its connection's thread on it before answering (a slow media server).
    public let publishGate = LockedBox<BlockingGate?>(nil)
    private let listener = LockedBox<HostileWebSocketServer?>(nil)

    /// Starts listening on 127.0.0.1 on an ephemeral port.
    public init() throws {
        let server = try HostileWebSocketServer { [weak self] peer in try self?.serve(peer) }
        listener.mutate { $0 = server }
    }

    /// `ws://127.0.0.1:<port>/room`.
    public var url: String { listener.value?.url("/room") ?? "" }
    /// The listening port.
    public var port: Int { listener.value?.port ?? 0 }

    /// Stops listening and cuts every connection.
    public func stop() { listener.value?.stop() }

    /// The users in `room`, sorted, with whether each publishes.
    public func members(of room: String) -> [String: Bool] {
        var members: [String: Bool] = [:]
        for session in state.value.sessions.values where session.room == room {
            if let user = session.user { members[user] = session.publishing }
        }
        return members
    }

    private func serve(_ peer: HostilePeer) throws {
        let connection = state.mutate { s -> Int in
            s.nextConnection += 1
            s.peers[s.nextConnection] = peer
            return s.nextConnection
        }
        var sessionID = UUID().uuidString
        state.mutate { $0.sessions[sessionID] = Session(connection: connection) }
        defer {
            // The session outlives its connection (it may be resumed); what is sent to it meanwhile is lost.
            state.mutate { s in
                s.peers[connection] = nil
                if s.sessions[sessionID]?.connection == connection { s.sessions[sessionID]?.connection = nil }
            }
        }
        while let text = try peer.nextText() {
            guard let message = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                  let method = message["method"] as? String
            else { continue }
            let id = message["id"]
            let params = message["params"] as? [String: Any] ?? [:]
            if method == "connect", let wanted = params["sessionId"] as? String {
                let known = state.mutate { s -> Bool in
                    guard s.sessions[wanted] != nil else { return false }
                    s.sessions[sessionID] = nil
                    s.sessions[wanted]?.connection = connection
                    return true
                }
                if known { sessionID = wanted }
                try reply(peer, id: id, known ? ["value": "reconnection successful", "sessionId": sessionID]
                          : nil, error: known ? nil : (40007, "reconnection error"))
                continue
            }
            runs.mutate { $0[method, default: 0] += 1 }
            let session = sessionID
            // A media server works on a publication while the session's other requests go on (a slow one can then be
            // retried while it runs).
            if method == "publishVideo" {
                Thread.detachNewThread { [self] in try? answer(text, session: session, on: peer) }
            } else {
                try answer(text, session: session, on: peer)
            }
            if method == "leaveRoom" {
                // As Kurento's room server: the socket closes after leaveRoom, and the session with it.
                state.mutate { $0.sessions[session] = nil }
                return
            }
        }
    }

    /// Runs the request `text` for `session` and replies on `peer`.
    private func answer(_ text: String, session: String, on peer: HostilePeer) throws {
        guard let message = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let method = message["method"] as? String
        else { return }
        let outcome = handle(method, message["params"] as? [String: Any] ?? [:], session: session)
        try reply(peer, id: message["id"], outcome.result.map { result in
            var members = result
            members["sessionId"] = session
            return members
        }, error: outcome.error)
    }

    /// Runs one Room method for `session`: its result members or its error.
    private func handle(_ method: String, _ params: [String: Any], session: String)
        -> (result: [String: Any]?, error: (Int, String)?)
    {
        let me = state.value.sessions[session]
        switch method {
        case "ping":
            return (["value": "pong"], nil)
        case "joinRoom":
            guard let user = params["user"] as? String, let room = params["room"] as? String else {
                return (nil, (-1, "RuntimeException: user and room are required"))
            }
            guard members(of: room)[user] == nil else { return (nil, (104, "User '\(user)' already exists in room")) }
            let others = members(of: room).sorted { $0.key < $1.key }.map { name, publishing -> [String: Any] in
                publishing ? ["id": name, "streams": [["id": "webcam"]]] : ["id": name]
            }
            state.mutate { $0.sessions[session]?.user = user; $0.sessions[session]?.room = room }
            notify(room, except: session, "participantJoined", ["id": user])
            return (["value": others], nil)
        case "leaveRoom":
            guard let user = me?.user, let room = me?.room else { return (nil, (-1, "RuntimeException: not in a room")) }
            state.mutate { $0.sessions[session] = Session(connection: me?.connection) }
            notify(room, except: session, "participantLeft", ["name": user])
            return ([:], nil)
        case "publishVideo":
            guard let user = me?.user, let room = me?.room, let offer = params["sdpOffer"] as? String else {
                return (nil, (-1, "RuntimeException: not in a room"))
            }
            publishGate.value?.block()
            state.mutate { $0.sessions[session]?.publishing = true }
            notify(room, except: session, "participantPublished", ["id": user, "streams": [["id": "webcam"]]])
            return (["sdpAnswer": offer], nil)
        case "unpublishVideo":
            guard let user = me?.user, let room = me?.room else { return (nil, (-1, "RuntimeException: not in a room")) }
            state.mutate { $0.sessions[session]?.publishing = false }
            notify(room, except: session, "participantUnpublished", ["name": user])
            return ([:], nil)
        case "receiveVideoFrom":
            guard me?.room != nil, let offer = params["sdpOffer"] as? String else {
                return (nil, (-1, "RuntimeException: not in a room"))
            }
            return (["sdpAnswer": offer], nil)
        case "onIceCandidate", "unsubscribeFromVideo":
            return ([:], nil)
        case "sendMessage":
            guard let user = me?.user, let room = me?.room else { return (nil, (-1, "RuntimeException: not in a room")) }
            notify(room, except: nil, "sendMessage", ["room": room, "user": user, "message": params["message"] ?? ""])
            return ([:], nil)
        default:
            return (nil, (-32601, "Method not found."))
        }
    }

    /// Sends `method` to every connected session in `room` but `except`; a session without a connection misses it.
    private func notify(_ room: String, except: String?, _ method: String, _ params: [String: Any]) {
        let targets = state.mutate { s in
            s.sessions.filter { $0.key != except && $0.value.room == room }.compactMap { $0.value.connection }
                .compactMap { s.peers[$0] }
        }
        for peer in targets { try? send(peer, ["jsonrpc": "2.0", "method": method, "params": params]) }
    }

    private func reply(_ peer: HostilePeer, id: Any?, _ result: [String: Any]?, error: (Int, String)?) throws {
        var message: [String: Any] = ["jsonrpc": "2.0", "id": id ?? NSNull()]
        if let error {
            message["error"] = ["code": error.0, "message": error.1, "data": "java.lang.RuntimeException"]
        } else {
            message["result"] = result ?? [:]
        }
        try send(peer, message)
    }

    private func send(_ peer: HostilePeer, _ message: [String: Any]) throws {
        let data = try JSONSerialization.data(withJSONObject: message)
        writeLock.lock()
        defer { writeLock.unlock() }
        try peer.sendText(String(decoding: data, as: UTF8.self))
    }
}
