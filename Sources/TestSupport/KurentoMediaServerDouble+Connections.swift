import Foundation
import SignalingSupport

extension KurentoMediaServerDouble {
    /// The MediaType enum (CORE-KMD).
    static let mediaTypes = ["AUDIO", "VIDEO", "DATA"]

    /// The optional `mediaType` of `connect`, `disconnect`, `isMediaFlowing…` and the connection getters.
    static func mediaType(_ params: [String: Any], required: Bool) throws(RequestFailure) -> String? {
        guard let type = try marshal(params, "mediaType", .string, required: required) as? String else { return nil }
        // An enum value KMS does not know: refused while unmarshalling (the message is the double's choice).
        guard mediaTypes.contains(type) else { throw .marshall("'mediaType' parameter should be a MediaType") }
        return type
    }

    /// KMS: MEI `connect(sink, mediaType, sourceMediaDescription, sinkMediaDescription)`: both elements must exist
    /// (40101) and share a pipeline (40004 CONNECT_ERROR); without `mediaType` AUDIO, VIDEO and DATA are connected,
    /// each with description "default"; a sink that already has a source for a type (and description) is
    /// disconnected from it first; an element may feed itself (DOC loopback). Each connection emits
    /// `ElementConnected` from the source.
    func connect(_ sourceID: String, _ params: Any?) throws(RequestFailure) -> Any {
        let (sinkID, types, sourceDescription, sinkDescription) = try Self.linkParams(params)
        try state.withLock { s throws(RequestFailure) in
            guard let sink = s.world.objects[sinkID], sink.isElement else { throw .objectNotFound(sinkID) }
            guard let source = s.world.objects[sourceID], source.pipeline == sink.pipeline else {
                throw .kurento(40004, "CONNECT_ERROR", "Media elements do not share pipeline")
            }
            for type in types {
                let link = Link(source: sourceID, sink: sinkID, mediaType: type,
                                sourceDescription: sourceDescription ?? "default", sinkDescription: sinkDescription ?? "default")
                for old in s.world.links where old.sink == sinkID && old.mediaType == type
                    && old.sinkDescription == link.sinkDescription
                {
                    s.world.links.removeAll { $0 == old }
                    emitConnection("ElementDisconnected", old, in: &s)
                }
                s.world.links.append(link)
                emitConnection("ElementConnected", link, in: &s)
            }
            updateMediaFlow(in: &s)
        }
        return NSNull()
    }

    /// KMS: MEI `disconnect`: the sink must exist (40101); a pair that is not connected is no error, and
    /// `ElementDisconnected` is emitted either way (the `out_of_range` is swallowed before the event).
    func disconnect(_ sourceID: String, _ params: Any?) throws(RequestFailure) -> Any {
        let (sinkID, types, sourceDescription, sinkDescription) = try Self.linkParams(params)
        try state.withLock { s throws(RequestFailure) in
            guard s.world.objects[sinkID]?.isElement == true else { throw .objectNotFound(sinkID) }
            for type in types {
                let link = Link(source: sourceID, sink: sinkID, mediaType: type,
                                sourceDescription: sourceDescription ?? "default", sinkDescription: sinkDescription ?? "default")
                s.world.links.removeAll { $0 == link }
                emitConnection("ElementDisconnected", link, in: &s)
            }
            updateMediaFlow(in: &s)
        }
        return NSNull()
    }

    /// KMS: CORE-KMD `getSourceConnections` / `getSinkConnections {mediaType?, description?}`: ElementConnectionData
    /// values (`source`, `sink`, `type`, `sourceDescription`, `sinkDescription`), tagged as complex types are.
    func connections(_ id: String, sources: Bool, _ params: Any?) throws(RequestFailure) -> Any {
        let request = try Self.paramsObject(params, "operationParams", required: false)
        let type = try Self.mediaType(request, required: false)
        let description = try Self.marshal(request, "description", .string, required: false) as? String
        return state.withLock { s in
            s.world.links.filter { link in
                (sources ? link.sink == id : link.source == id) && (type == nil || link.mediaType == type)
                    && (description == nil || (sources ? link.sinkDescription : link.sourceDescription) == description)
            }.map { link -> [String: Any] in
                ["__module__": "kurento", "__type__": "ElementConnectionData", "source": link.source, "sink": link.sink,
                 "type": link.mediaType, "sourceDescription": link.sourceDescription,
                 "sinkDescription": link.sinkDescription]
            }
        }
    }

    /// The params `connect` and `disconnect` share (TPL-MARSH): `sink` (required), `mediaType` (all three when absent),
    /// `sourceMediaDescription`, `sinkMediaDescription`.
    private static func linkParams(_ params: Any?) throws(RequestFailure)
        -> (sink: String, types: [String], sourceDescription: String?, sinkDescription: String?)
    {
        let request = try paramsObject(params, "operationParams", required: true)
        let sinkID = try marshalString(request, "sink")
        let types = try mediaType(request, required: false).map { [$0] } ?? mediaTypes
        let sourceDescription = try marshal(request, "sourceMediaDescription", .string, required: false) as? String
        let sinkDescription = try marshal(request, "sinkMediaDescription", .string, required: false) as? String
        return (sinkID, types, sourceDescription, sinkDescription)
    }
}
