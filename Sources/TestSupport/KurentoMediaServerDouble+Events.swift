import Foundation
import SignalingSupport

extension KurentoMediaServerDouble {
    // MARK: Methods

    /// KMS: SM7 `subscribe`: `type`, `object`, then the session; the object must exist (40101, and the session
    /// references it), and its class must declare the event (40106, SM7 `connectEventHandler`). Answers a new
    /// subscription uuid; a repeated (session, object, type) gets a new uuid but shares one handler, so each
    /// occurrence is sent once (WST7 `processSubscription`, 7.x).
    func subscribe(_ params: Any?) throws(RequestFailure) -> MethodResult {
        let request = try Self.requireParams(params)
        let type = try Self.requireString(request, "type")
        let id = try Self.requireString(request, "object")
        let session = try Self.sessionID(request)
        let subscription = try state.withLock { s throws(RequestFailure) -> String in
            let object = try touch(id, session: session, in: &s)
            guard object.kind.events.contains(type) else {
                throw .kurento(40106, "MEDIA_OBJECT_EVENT_NOT_SUPPORTED", "Event '\(type)' not supported")
            }
            let uuid = World.uuid()
            s.world.subscriptions.insert(Subscription(session: session, object: id, type: type), as: uuid)
            return uuid
        }
        return .members(["value": subscription, "sessionId": session])
    }

    /// KMS: SM7 `unsubscribe`: `object`, `subscription` and `sessionId` are all required (-32000); it only erases the
    /// handler (MSET `removeEventHandler`) and never fails otherwise. Answers `{"sessionId": …}`.
    func unsubscribe(_ params: Any?) throws(RequestFailure) -> MethodResult {
        let request = try Self.requireParams(params)
        let id = try Self.requireString(request, "object")
        let subscription = try Self.requireString(request, "subscription")
        let session = try Self.requireString(request, "sessionId")
        state.withLock { s in
            if let existing = s.world.subscriptions[subscription], existing.object == id, existing.session == session {
                s.world.subscriptions.remove(subscription)
            }
        }
        return .members(["sessionId": session])
    }

    // MARK: Emitting

    /// Emits event `type` from object `source` to every session subscribed to it (once per session).
    ///
    /// KMS: WSEH `sendEvent` wraps the value as `{"jsonrpc":"2.0","method":"onEvent","params":{"value": …}}` with no
    /// id; TPL-INV `connect()` makes the value `{"data": …, "object": <source id>, "type": <event>}`. CORE-KMD
    /// `RaiseBase`: `data` has `source`, `tags` and `timestampMillis` (a string); `Media` events add `type` (the
    /// event name), which `Error` (its own `type`), `ObjectCreated` and `ObjectDestroyed` (RaiseBase only) do not.
    /// Sending happens later, on the event queue (EVH `sendEventAsync`), to the socket tied to the session then.
    func emit(_ type: String, from source: String, _ members: [String: Any], raiseBaseOnly: Bool = false,
              in s: inout State) {
        var data = members
        data["source"] = source
        data["tags"] = tags(of: source, in: s)
        data["timestampMillis"] = String(Int64(Date().timeIntervalSince1970 * 1000))
        if !raiseBaseOnly { data["type"] = type }
        let value: [String: Any] = ["data": data, "object": source, "type": type]
        let text = Self.serialize(["jsonrpc": "2.0", "method": "onEvent", "params": ["value": value]])
        let sessions = s.world.subscriptions.sessions(subscribedTo: type, of: source)
        for session in sessions.sorted() {
            eventQueue.async { [weak self] in self?.deliver(text, to: session) }
        }
    }

    /// `ElementConnected` / `ElementDisconnected`, emitted by the link's source (CORE-KMD: `sink`, `mediaType`,
    /// `sourceMediaDescription`, `sinkMediaDescription`).
    func emitConnection(_ type: String, _ link: Link, in s: inout State) {
        emit(type, from: link.source, [
            "sink": link.sink, "mediaType": link.mediaType, "sourceMediaDescription": link.sourceDescription,
            "sinkMediaDescription": link.sinkDescription,
        ], in: &s)
    }

    /// The event's `tags`: `[]`, or the object's tags when its `sendTagsInEvents` is set (CORE-KMD `Tag` values).
    private func tags(of id: String, in s: State) -> [[String: Any]] {
        let object = id == Self.serverManagerID ? s.world.serverManager : s.world.objects[id]
        guard let object, object.properties["sendTagsInEvents"] == .bool(true) else { return [] }
        return object.tags.sorted { $0.key < $1.key }.map {
            ["__module__": "kurento", "__type__": "Tag", "key": $0.key, "value": $0.value]
        }
    }

    /// Sends an event to the socket now tied to `session`; dropped when there is none (WSEH `sendEvent` catches the
    /// `out_of_range`). A socket whose write fails is cut; one that took it counts it (``eventsSent``).
    private func deliver(_ text: String, to session: String) {
        let socket = state.withLock { s in s.socketOfSession[session].flatMap { s.sockets[$0] } }
        guard let socket else { return }
        guard socket.send(text) else {
            socket.cut()
            forget(socket)
            return
        }
        state.withLock { $0.eventsSent += 1 }
    }
}

extension KurentoMediaServerDouble.Kind {
    /// The events a class declares, with those it inherits (TPL-INV `connect()` walks `extends`).
    var events: Set<String> {
        // KMS: CORE-KMD: MediaObject declares Error.
        let mediaObject: Set<String> = ["Error"]
        // KMS: CORE-KMD MediaElement.
        let mediaElement = mediaObject.union([
            "ElementConnected", "ElementDisconnected", "MediaFlowOutStateChanged", "MediaFlowInStateChanged",
            "MediaTranscodingStateChanged",
        ])
        switch self {
        case .mediaPipeline: return mediaObject
        // KMS: CORE-KMD ServerManager.
        case .serverManager: return mediaObject.union(["ObjectCreated", "ObjectDestroyed"])
        case .passThrough: return mediaElement
        case .webRtcEndpoint:
            // KMS: CORE-KMD SessionEndpoint and BaseRtpEndpoint; WRTC-KMD7 (the 7.x names).
            return mediaElement.union([
                "MediaSessionStarted", "MediaSessionTerminated", "MediaStateChanged", "ConnectionStateChanged",
                "IceCandidateFound", "IceGatheringDone", "IceComponentStateChanged", "DtlsConnectionStateChange",
                "DataChannelOpened", "DataChannelClosed", "NewCandidatePairSelected",
            ])
        }
    }
}
