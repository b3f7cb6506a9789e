import Foundation
import SignalingSupport

/// The Room methods of ``StockKurentoRoomServer``, each as Kurento/kurento-room's `RoomJsonRpcHandler` dispatches it
/// (`JsonRpcUserControl` → `NotificationRoomManager` → `RoomManager`/`Room`/`Participant` →
/// `DefaultNotificationRoomHandler`), with its texts and the order of its reply and notifications.
extension StockKurentoRoomServer {
    /// A Java exception one of the methods throws (`JsonRpcUserControl.getStringParam` and friends, `customRequest`).
    struct Thrown: Error {
        let type: String
        let message: String
    }

    /// Runs `method` for `session`, calling `reply` when the stock server would send the reply (before or after the
    /// notifications, as it does). Returns whether the socket closes after it (a `leaveRoom` that left a room).
    func run(_ method: String, _ params: [String: Any], session: String,
             reply: (Answer) -> Void) -> Bool {
        do {
            return try dispatch(method, params, session: session, reply: reply)
        } catch let thrown as Thrown {
            reply(.exception(type: thrown.type, message: thrown.message, method: method))
        } catch {
            reply(.exception(type: "RuntimeException", message: "\(error)", method: method))
        }
        return false
    }

    private func dispatch(_ method: String, _ params: [String: Any], session: String,
                          reply: (Answer) -> Void) throws -> Bool {
        let me = state.withLock { $0 }.sessions[session]
        // `RoomManager.getParticipant`: every request but joinRoom needs the session's participant.
        let notFound = Answer.roomError(102, "No participant with id '\(session)' was found")
        switch method {
        case "joinRoom":
            try joinRoom(params, session: session, reply: reply)
        case "leaveRoom":
            // `JsonRpcUserControl.leaveRoom`: without a room it evicts "by the admin method", whose RoomException is
            // only logged: no reply at all.
            guard let user = me?.user, let room = me?.room else { return false }
            state.withLock { $0.sessions[session] = Session(connection: me?.connection) }
            // `DefaultNotificationRoomHandler.onParticipantLeft`: the others are told first, then the reply.
            notify(room, except: session, "participantLeft", ["name": user])
            reply(.result([String: Any]()))
            return true
        case "publishVideo":
            // `JsonRpcUserControl.publishVideo` reads both params before anything else.
            let offer = try string("sdpOffer", params)
            _ = try boolean("doLoopback", params)
            guard let user = me?.user, let room = me?.room else { reply(notFound); break }
            publishGate.withLock { $0 }?.block()
            state.withLock { $0.sessions[session]?.publishing = true }
            // `DefaultNotificationRoomHandler.onPublishMedia`: the reply first, then the others.
            reply(.result(["sdpAnswer": offer]))
            notify(room, except: session, "participantPublished", ["id": user, "streams": [["id": "webcam"]]])
        case "unpublishVideo":
            guard let user = me?.user, let room = me?.room else { reply(notFound); break }
            // `RoomManager.unpublishMedia`.
            guard me?.publishing == true else {
                reply(.roomError(105, "Participant '\(user)' is not streaming media"))
                break
            }
            state.withLock { $0.sessions[session]?.publishing = false }
            // `DefaultNotificationRoomHandler.onUnpublishMedia`: the reply first, then the others.
            reply(.result([String: Any]()))
            notify(room, except: session, "participantUnpublished", ["name": user])
        case "receiveVideoFrom":
            let sender = try senderName(params)
            let offer = try string("sdpOffer", params)
            guard let user = me?.user, let room = me?.room else { reply(notFound); break }
            // `RoomManager.subscribe` (its texts, unbalanced quotes included) and `Participant.receiveMediaFrom`.
            guard let publishing = members(of: room)[sender] else {
                reply(.roomError(102, "User '\(sender) not found in room '\(room)'"))
                break
            }
            guard publishing else {
                reply(.roomError(105, "User '\(sender) not streaming media in room '\(room)'"))
                break
            }
            guard sender != user else { reply(.roomError(105, "Can loopback only when publishing media")); break }
            state.withLock { _ = $0.sessions[session]?.receiving.insert(sender) }
            reply(.result(["sdpAnswer": offer]))
        case "unsubscribeFromVideo":
            let sender = try senderName(params)
            guard me?.user != nil, let room = me?.room else { reply(notFound); break }
            // `RoomManager.unsubscribe`: an unknown user is 102; `Participant.cancelReceivingMedia` only logs a
            // warning when there is nothing to cancel, and the reply is `{}` either way.
            guard members(of: room)[sender] != nil else {
                reply(.roomError(102, "User \(sender) not found in room \(room)"))
                break
            }
            state.withLock { _ = $0.sessions[session]?.receiving.remove(sender) }
            reply(.result([String: Any]()))
        case "onIceCandidate":
            // `JsonRpcUserControl.onIceCandidate` reads all four params first.
            for key in ["endpointName", "candidate", "sdpMid"] { _ = try string(key, params) }
            _ = try integer("sdpMLineIndex", params)
            guard me?.room != nil else { reply(notFound); break }
            // `Participant.addIceCandidate`: a candidate for any other name is queued on a placeholder subscriber
            // endpoint (`addSubscriber`), whether or not that user is in the room: `{}`.
            reply(.result([String: Any]()))
        case "sendMessage":
            let userMessage = try string("userMessage", params)
            let roomMessage = try string("roomMessage", params)
            let text = try string("message", params)
            guard let user = me?.user, let room = me?.room else { reply(notFound); break }
            // `NotificationRoomManager.sendMessage`.
            guard userMessage == user else {
                reply(.roomError(102, "Provided username '\(userMessage)' differs from the participant's name"))
                break
            }
            guard roomMessage == room else {
                reply(.roomError(202, "Provided room name '\(roomMessage)' differs from the participant's room"))
                break
            }
            // `DefaultNotificationRoomHandler.onSendMessage`: the reply first, then everyone, the sender included.
            reply(.result([String: Any]()))
            notify(room, except: nil, "sendMessage", ["room": room, "user": user, "message": text])
        case "customRequest":
            // `JsonRpcUserControl.customRequest`.
            throw Thrown(type: "RuntimeException", message: "Unsupported method")
        default:
            // `RoomJsonRpcHandler.handleRequest` logs "Unrecognized request" after `transaction.startAsync()`, so
            // `JsonRpcHandlerManager` sends no empty response either: no reply.
            reply(.noReply)
        }
        return false
    }

    /// `JsonRpcUserControl.joinRoom` → `RoomManager.joinRoom` → `Room.join`, answered by
    /// `DefaultNotificationRoomHandler.onParticipantJoined`.
    private func joinRoom(_ params: [String: Any], session: String, reply: (Answer) -> Void) throws {
        let room = try string("room", params)
        let user = try string("user", params)
        guard !user.isEmpty else { return reply(.roomError(999, "Empty user name is not allowed")) }
        let existing = members(of: room)
        guard existing[user] == nil else {
            return reply(.roomError(104, "User '\(user)' already exists in room '\(room)'"))
        }
        state.withLock { $0.sessions[session]?.user = user; $0.sessions[session]?.room = room }
        // Each existing participant is told while the list is built, and the reply goes last.
        notify(room, except: session, "participantJoined", ["id": user])
        reply(.result(existing.sorted { $0.key < $1.key }.map { name, publishing -> [String: Any] in
            publishing ? ["id": name, "streams": [["id": "webcam"]]] : ["id": name]
        }))
    }

    /// `JsonRpcUserControl.getStringParam`: a missing param is a `RuntimeException`.
    private func string(_ key: String, _ params: [String: Any]) throws -> String {
        guard let value = params[key], !(value is NSNull) else { throw missing(key) }
        return value as? String ?? "\(value)"
    }

    /// `JsonRpcUserControl.getBooleanParam`.
    private func boolean(_ key: String, _ params: [String: Any]) throws -> Bool {
        guard let value = params[key], !(value is NSNull) else { throw missing(key) }
        return (value as? Bool) ?? false
    }

    /// `JsonRpcUserControl.getIntParam`.
    private func integer(_ key: String, _ params: [String: Any]) throws -> Int {
        guard let value = params[key], !(value is NSNull) else { throw missing(key) }
        return (value as? Int) ?? 0
    }

    /// The user a `sender` names: the part before its first `_` (`JsonRpcUserControl.receiveVideoFrom`; without
    /// one, Java's `substring(0, -1)` throws).
    private func senderName(_ params: [String: Any]) throws -> String {
        let sender = try string("sender", params)
        guard let underscore = sender.firstIndex(of: "_") else {
            throw Thrown(type: "StringIndexOutOfBoundsException", message: "String index out of range: -1")
        }
        return String(sender[..<underscore])
    }

    private func missing(_ key: String) -> Thrown {
        Thrown(type: "RuntimeException", message: "Request element '\(key)' is missing")
    }
}
