import Foundation
import PeerManager
import SignalingSupport

extension KurentoMediaServerDouble {
    /// KMS: SMGR `.hpp` `getId()`: the ServerManager's fixed id. It always exists and is reachable from any session
    /// without being referenced by it (MSET `getMediaObject`).
    static let serverManagerID = "manager_ServerManager"

    // MARK: Methods

    /// KMS: SM7 `create`: `type` (plain or module-qualified), `constructorParams`, `sessionId` (or a new one);
    /// `properties` is never read. Answers `{"value": <id>, "sessionId": …}`.
    func create(_ params: Any?) throws(RequestFailure) -> MethodResult {
        let request = try Self.requireParams(params)
        let type = try Self.requireString(request, "type")
        let session = try Self.sessionID(request)
        // KMS: MM `loadModule` registers each factory under its name and its qualified name ("kurento.X": core,
        // elements and filters use the kurento prefix); anything else → 40108 (MM `getFactory`).
        let name = type.hasPrefix("kurento.") ? String(type.dropFirst("kurento.".count)) : type
        guard let kind = Kind(rawValue: name), kind != .serverManager else {
            throw .kurento(40108, "MEDIA_OBJECT_NOT_AVAILABLE", "Factory '\(type)' not found")
        }
        // KMS: RM `checkThreads` (the double's fault ``refuseCreates(_:threadsLimit:)``); checked once the factory
        // is known (the order of the two checks is an inference).
        try state.withLock { s throws(RequestFailure) in
            guard s.faults.refusedCreates > 0 else { return }
            s.faults.refusedCreates -= 1
            throw .kurento(40009, "NOT_ENOUGH_RESOURCES", "Reached KMS threads limit: \(s.faults.threadsLimit)")
        }
        // KMS: TPL-MARSH `XConstructor::Serialize`: required when the class has a required constructor param
        // (WebRtcEndpoint and PassThrough: `mediaPipeline`); MediaPipeline has none (CORE-KMD).
        let constructor = try Self.paramsObject(
            request["constructorParams"], "constructorParams", required: kind != .mediaPipeline)
        var webRtc: WebRtc?
        var pipeline: String?
        if kind != .mediaPipeline {
            pipeline = try Self.marshalString(constructor, "mediaPipeline")
        }
        if kind == .webRtcEndpoint {
            // KMS: WRTC-KMD7 constructor: optional `recvonly`, `sendonly`, `useDataChannels` (false by default).
            var rtc = WebRtc()
            rtc.recvonly = try Self.marshal(constructor, "recvonly", .boolean, required: false) as? Bool ?? false
            rtc.sendonly = try Self.marshal(constructor, "sendonly", .boolean, required: false) as? Bool ?? false
            rtc.useDataChannels =
                try Self.marshal(constructor, "useDataChannels", .boolean, required: false) as? Bool ?? false
            webRtc = rtc
        }
        let id = try state.withLock { s throws(RequestFailure) -> String in
            if let pipeline {
                // KMS: TPL-INV `Serialize` of a remote-class param → `getObject(id)`: 40101 when unknown or
                // released. An id of another class is refused the same way (the double's choice: KMS would get a
                // null pipeline there).
                guard s.world.objects[pipeline]?.kind == .mediaPipeline else { throw .objectNotFound(pipeline) }
            }
            // KMS: MOI `createId()`: `<uuid>_kurento.<Type>`, prefixed by `<parent id>/` for an element.
            let own = "\(World.uuid())_kurento.\(kind.rawValue)"
            let id = pipeline.map { "\($0)/\(own)" } ?? own
            var object = MediaObject(id: id, kind: kind, pipeline: pipeline, creationTime: Int(Date().timeIntervalSince1970))
            object.webRtc = webRtc
            s.world.objects[id] = object
            s.world.order.append(id)
            // KMS: FAC `createObject` → MSET `ref(session, object)`: the object belongs to the creating session.
            ref(id, into: session, in: &s)
            // KMS: MSET `ref(ptr)` emits ObjectCreated on the ServerManager (CORE-KMD: `object`, RaiseBase only).
            emit("ObjectCreated", from: Self.serverManagerID, ["object": id], raiseBaseOnly: true, in: &s)
            return id
        }
        return .members(["value": id, "sessionId": session])
    }

    /// KMS: SM7 `release`: `{"sessionId": …}` and no `value`. Releasing an unknown or released id succeeds (MSET
    /// `release(const std::string&)`: "Do not raise exception if it is already released").
    func release(_ params: Any?) throws(RequestFailure) -> MethodResult {
        let request = try Self.requireParams(params)
        let id = try Self.requireString(request, "object")
        let session = try Self.sessionID(request)
        let closing = state.withLock { s in release(id, in: &s) }
        closePeers(closing)
        return .members(["sessionId": session])
    }

    /// KMS: SM7 `describe` (DOC): the type, its qualified name and its ancestors, nearest first. The object is
    /// looked up through the session (MSET `getMediaObject`), which references it.
    func describe(_ params: Any?) throws(RequestFailure) -> MethodResult {
        let request = try Self.requireParams(params)
        let id = try Self.requireString(request, "object")
        let session = try Self.sessionID(request)
        let object = try state.withLock { s throws(RequestFailure) in try touch(id, session: session, in: &s) }
        return .members([
            "sessionId": session, "type": object.kind.rawValue, "qualifiedType": "kurento.\(object.kind.rawValue)",
            "hierarchy": object.kind.hierarchy,
        ])
    }

    // MARK: The media set

    /// KMS: MSET `getMediaObject(sessionId, id)`: the object (the ServerManager too), referenced from now on by the
    /// session; 40101 for an unknown or released id, 40109 for a transaction's `newref:` outside a transaction.
    func touch(_ id: String, session: String, in s: inout State) throws(RequestFailure) -> MediaObject {
        if id == Self.serverManagerID { return s.world.serverManager }
        if id.hasPrefix("newref:") {
            throw .kurento(40109, "MEDIA_OBJECT_NOT_FOUND_TRANSACTION_NO_COMMIT",
                           "Object '\(id)' not found. Possibly using a transactional object without committing the transaction.")
        }
        guard let object = s.world.objects[id] else { throw .objectNotFound(id) }
        ref(id, into: session, in: &s)
        return object
    }

    /// Releases `id` (a pipeline with its elements) and returns the endpoints whose PeerManager connections are to
    /// be closed. KMS: MSET `release` unrefs the object from every session, recursing into its children; the
    /// released objects' subscriptions are erased first, so they emit nothing while dying; MEI `release` →
    /// `disconnectAll()`, so elements still alive see `ElementDisconnected` and their media stop; each object emits
    /// `ObjectDestroyed` on the ServerManager (MSET `releasePointer`), children before their pipeline.
    func release(_ id: String, in s: inout State) -> [String] {
        guard let object = s.world.objects[id] else { return [] }
        var dying = object.kind == .mediaPipeline ? s.world.order.filter { s.world.objects[$0]?.pipeline == id } : []
        dying.append(id)
        let dead = Set(dying)
        s.world.subscriptions.removeAll(watching: dead)
        for link in s.world.links where dead.contains(link.source) || dead.contains(link.sink) {
            s.world.links.removeAll { $0 == link }
            emitConnection("ElementDisconnected", link, in: &s)
        }
        for id in dying {
            s.world.objects[id] = nil
            s.world.order.removeAll { $0 == id }
            for session in s.world.sessions.keys { s.world.sessions[session]?.objects.remove(id) }
            emit("ObjectDestroyed", from: Self.serverManagerID, ["objectId": id], raiseBaseOnly: true, in: &s)
        }
        updateMediaFlow(in: &s)
        return dying
    }

    /// Closes the PeerManager connections of released endpoints (without waiting: the ids are never reused).
    func closePeers(_ ids: [String]) {
        guard !ids.isEmpty else { return }
        let peers = state.withLock { $0.world.peers }
        Task { for id in ids { await peers.closeConnection(id) } }
    }
}

extension KurentoMediaServerDouble.Kind {
    /// KMS: DOC describe: the ancestors, nearest first, without the type itself; from the `extends` chains of
    /// CORE-KMD and WRTC-KMD7 (an inference: no capture of these was seen).
    var hierarchy: [String] {
        switch self {
        case .mediaPipeline, .serverManager: ["kurento.MediaObject"]
        case .passThrough: ["kurento.MediaElement", "kurento.MediaObject"]
        case .webRtcEndpoint:
            ["kurento.BaseRtpEndpoint", "kurento.SdpEndpoint", "kurento.SessionEndpoint", "kurento.Endpoint",
             "kurento.MediaElement", "kurento.MediaObject"]
        }
    }
}
