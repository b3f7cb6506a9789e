import Foundation
import SignalingSupport

extension KurentoMediaServerDouble {
    /// KMS: SM7 `invoke`: `operation`, `object`, optional `operationParams`, then the session; the object is looked up
    /// through the session (40101, and it is referenced). Answers `{"value": <return value or null>, "sessionId": …}`:
    /// void operations answer `"value": null` (SM7 `response[VALUE] = value` with an unset value; WIRE-141).
    func invoke(_ params: Any?) throws(RequestFailure) -> MethodResult {
        let request = try Self.requireParams(params)
        let operation = try Self.requireString(request, "operation")
        let id = try Self.requireString(request, "object")
        let session = try Self.sessionID(request)
        let object = try state.withLock { s throws(RequestFailure) in try touch(id, session: session, in: &s) }
        let value = try perform(operation, on: object, request["operationParams"])
        return .members(["value": value, "sessionId": session])
    }

    /// Dispatches by class, nearest class first, as the generated `XImpl::invoke` chain does (TPL-INV); an operation
    /// no class of the chain has → 40008 `Method '<op>' with N parameters not found` (N: the members of
    /// `operationParams`), data type MALFORMED_TRANSACTION (the root `MediaObjectImpl::invoke`; not 40105).
    private func perform(_ operation: String, on object: MediaObject, _ params: Any?) throws(RequestFailure) -> Any {
        if object.kind == .webRtcEndpoint, let value = try webRtcOperation(operation, object, params) { return value }
        if object.isElement, let value = try elementOperation(operation, object, params) { return value }
        if object.kind == .serverManager, let value = try serverManagerOperation(operation, params) { return value }
        if let value = try mediaObjectOperation(operation, object, params) { return value }
        if let value = try property(operation, of: object, params) { return value }
        throw .kurento(40008, "MALFORMED_TRANSACTION",
                       "Method '\(operation)' with \(Self.memberCount(params)) parameters not found")
    }

    /// WebRtcEndpoint, BaseRtpEndpoint and SdpEndpoint operations (WRTC-KMD7, CORE-KMD).
    private func webRtcOperation(_ operation: String, _ object: MediaObject, _ params: Any?) throws(RequestFailure) -> Any? {
        let id = object.id
        switch operation {
        case "processOffer": return try processOffer(id, params)
        case "processAnswer": return try processAnswer(id, params)
        case "generateOffer": return try generateOffer(id, params)
        case "getLocalSessionDescriptor": return try sessionDescriptor(id, local: true)
        case "getRemoteSessionDescriptor": return try sessionDescriptor(id, local: false)
        case "gatherCandidates": return try gatherCandidates(id, params)
        case "addIceCandidate": return try addIceCandidate(id, params)
        // KMS: CORE-KMD MediaState / ConnectionState enums (upper-case strings).
        case "getMediaState", "getConnectionState":
            return object.webRtc?.iceConnected == true ? "CONNECTED" : "DISCONNECTED"
        case "getICECandidatePairs": return [Any]()
        case "getIceConnectionState":
            guard let rtc = object.webRtc, rtc.iceConnected else { return [Any]() }
            return rtc.transports.indices.map { stream -> [String: Any] in
                ["__module__": "kurento", "__type__": "IceConnection", "streamId": String(stream + 1), "componentId": 1,
                 "state": "CONNECTED"]
            }
        case "createDataChannel":
            let request = try Self.paramsObject(params, "operationParams", required: false)
            _ = try Self.marshal(request, "label", .string, required: false)
            // KMS: WRTC: an endpoint made without `useDataChannels` → 40111. With it, the double opens nothing
            // (no DataChannelOpened: a known gap).
            guard object.webRtc?.useDataChannels == true else {
                throw .kurento(40111, "MEDIA_OBJECT_OPERATION_NOT_SUPPORTED", "Data channels are not supported")
            }
            return NSNull()
        case "closeDataChannel":
            let request = try Self.paramsObject(params, "operationParams", required: true)
            _ = try Self.marshal(request, "channelId", .integer, required: true)
            return NSNull()
        default: return nil
        }
    }

    /// MediaElement operations (CORE-KMD).
    private func elementOperation(_ operation: String, _ object: MediaObject, _ params: Any?) throws(RequestFailure) -> Any? {
        switch operation {
        case "connect": return try connect(object.id, params)
        case "disconnect": return try disconnect(object.id, params)
        case "getSourceConnections": return try connections(object.id, sources: true, params)
        case "getSinkConnections": return try connections(object.id, sources: false, params)
        case "isMediaFlowingIn", "isMediaFlowingOut":
            let incoming = operation == "isMediaFlowingIn"
            let request = try Self.paramsObject(params, "operationParams", required: true)
            let type = try Self.mediaType(request, required: true) ?? ""
            let pad = try Self.marshal(
                request, incoming ? "sinkMediaDescription" : "sourceMediaDescription", .string, required: false) as? String
            // KMS: MEI `isMediaFlowingIn` looks the pad up by its description, "default" unless given.
            guard (pad ?? "default") == "default" else { return false }
            let current = state.withLock { $0.world.objects[object.id] } ?? object
            return (incoming ? current.flowingIn : current.flowingOut).contains(type)
        case "isMediaTranscoding":
            let request = try Self.paramsObject(params, "operationParams", required: true)
            _ = try Self.mediaType(request, required: true)
            return false
        case "getStats":
            let request = try Self.paramsObject(params, "operationParams", required: false)
            _ = try Self.mediaType(request, required: false)
            return [String: Any]()
        case "getGstreamerDot":
            return "digraph \"\(object.id)\" {}"
        default: return nil
        }
    }

    /// ServerManager operations (SMGR; CORE-KMD).
    private func serverManagerOperation(_ operation: String, _ params: Any?) throws(RequestFailure) -> Any? {
        switch operation {
        case "getInfo":
            // ServerInfo (CORE-KMD), tagged as complex values are. `capabilities` is empty: the double has no
            // transactions (KMS says ["transactions"]).
            func module(_ name: String, _ factories: [String]) -> [String: Any] {
                ["__module__": "kurento", "__type__": "ModuleInfo", "name": name, "version": "7.1.0",
                 "generationTime": "double", "factories": factories]
            }
            return [
                "__module__": "kurento", "__type__": "ServerInfo", "version": "7.1.0", "type": "KMS",
                "capabilities": [String](),
                "modules": [module("core", ["MediaPipeline", "PassThrough"]), module("elements", ["WebRtcEndpoint"])],
            ] as [String: Any]
        case "getPipelines":
            // KMS: MSET `getPipelines("")` also refs every pipeline into session "" (not imitated).
            return state.withLock { s in s.world.order.filter { s.world.objects[$0]?.kind == .mediaPipeline } }
        case "getSessions":
            // KMS: MSET `getSessions` returns leading empty strings (not imitated).
            return state.withLock { $0.world.sessions.keys.sorted() }
        case "getCpuCount": return ProcessInfo.processInfo.activeProcessorCount
        case "getUsedCpu":
            let request = try Self.paramsObject(params, "operationParams", required: true)
            _ = try Self.marshal(request, "interval", .integer, required: true)
            return 0.0
        case "getUsedMemory": return 0
        case "getMetadata": return ""
        default: return nil
        }
    }

    /// MediaObject and MediaPipeline operations (CORE-KMD).
    private func mediaObjectOperation(_ operation: String, _ object: MediaObject, _ params: Any?) throws(RequestFailure) -> Any? {
        switch operation {
        case "getId": return object.id
        case "getCreationTime": return object.creationTime
        case "getMediaPipeline":
            // An element's pipeline; a pipeline is its own.
            if object.kind == .mediaPipeline { return object.id }
            return object.pipeline ?? NSNull()
        case "getParent": return object.pipeline ?? NSNull()
        case "getChildren", "getChilds":
            guard object.kind == .mediaPipeline else { return [String]() }
            return state.withLock { s in s.world.order.filter { s.world.objects[$0]?.pipeline == object.id } }
        case "getGstreamerDot" where object.kind == .mediaPipeline:
            return "digraph \"\(object.id)\" {}"
        case "addTag":
            let request = try Self.paramsObject(params, "operationParams", required: true)
            let key = try Self.marshalString(request, "key")
            let value = try Self.marshalString(request, "value")
            updateObject(object) { $0.tags[key] = value }
            return NSNull()
        case "removeTag":
            let request = try Self.paramsObject(params, "operationParams", required: true)
            let key = try Self.marshalString(request, "key")
            updateObject(object) { $0.tags[key] = nil }
            return NSNull()
        case "getTag":
            let request = try Self.paramsObject(params, "operationParams", required: true)
            let key = try Self.marshalString(request, "key")
            guard let value = object.tags[key] else {
                throw .kurento(40110, "MEDIA_OBJECT_TAG_KEY_NOT_FOUND", "Tag key not found")
            }
            return value
        case "getTags":
            return object.tags.sorted { $0.key < $1.key }.map { tag -> [String: Any] in
                ["__module__": "kurento", "__type__": "Tag", "key": tag.key, "value": tag.value]
            }
        default: return nil
        }
    }

    /// Changes a stored object (the ServerManager included).
    private func updateObject(_ object: MediaObject, _ body: (inout MediaObject) -> Void) {
        state.withLock { s in
            if object.kind == .serverManager {
                body(&s.world.serverManager)
            } else if var stored = s.world.objects[object.id] {
                body(&stored)
                s.world.objects[object.id] = stored
            }
        }
    }
}
