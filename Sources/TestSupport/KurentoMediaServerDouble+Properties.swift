import Foundation
import SignalingSupport

extension KurentoMediaServerDouble {
    /// A writable property of a class: `get<Name>` and `set<Name> {<name>: value}` (TPL-INV).
    struct PropertySpec {
        var name: String
        var type: MarshalType
        var classes: Set<Kind>
        /// The value before any set (the double's choice where the research gives none).
        var initial: PropertyValue?
    }

    /// The properties of CORE-KMD / WRTC-KMD7 the double stores (read-only ones are answered in ``invoke(_:)``).
    static let properties: [PropertySpec] = {
        let all: Set<Kind> = [.mediaPipeline, .webRtcEndpoint, .passThrough, .serverManager]
        let elements: Set<Kind> = [.webRtcEndpoint, .passThrough]
        let webRtc: Set<Kind> = [.webRtcEndpoint]
        return [
            // MediaObject; `name` defaults to the object's id (a nil initial value).
            PropertySpec(name: "name", type: .string, classes: all, initial: nil),
            PropertySpec(name: "sendTagsInEvents", type: .boolean, classes: all, initial: .bool(false)),
            // MediaPipeline.
            PropertySpec(name: "latencyStats", type: .boolean, classes: [.mediaPipeline], initial: .bool(false)),
            // MediaElement.
            PropertySpec(name: "minOutputBitrate", type: .integer, classes: elements, initial: .int(0)),
            PropertySpec(name: "maxOutputBitrate", type: .integer, classes: elements, initial: .int(0)),
            // SdpEndpoint / BaseRtpEndpoint.
            PropertySpec(name: "maxAudioRecvBandwidth", type: .integer, classes: webRtc, initial: .int(0)),
            PropertySpec(name: "maxVideoRecvBandwidth", type: .integer, classes: webRtc, initial: .int(0)),
            PropertySpec(name: "minVideoRecvBandwidth", type: .integer, classes: webRtc, initial: .int(0)),
            PropertySpec(name: "minVideoSendBandwidth", type: .integer, classes: webRtc, initial: .int(100)),
            PropertySpec(name: "maxVideoSendBandwidth", type: .integer, classes: webRtc, initial: .int(500)),
            PropertySpec(name: "mtu", type: .integer, classes: webRtc, initial: .int(1200)),
            // WebRtcEndpoint.
            PropertySpec(name: "stunServerAddress", type: .string, classes: webRtc, initial: .string("")),
            PropertySpec(name: "stunServerPort", type: .integer, classes: webRtc, initial: .int(0)),
            PropertySpec(name: "turnUrl", type: .string, classes: webRtc, initial: .string("")),
            PropertySpec(name: "externalIPv4", type: .string, classes: webRtc, initial: .string("")),
            PropertySpec(name: "externalIPv6", type: .string, classes: webRtc, initial: .string("")),
            PropertySpec(name: "networkInterfaces", type: .string, classes: webRtc, initial: .string("")),
            PropertySpec(name: "iceTcp", type: .boolean, classes: webRtc, initial: .bool(true)),
        ]
    }()

    /// KMS: TPL-INV property accessors: `get<Prop>` answers the value; `set<Prop>` reads the param named after the
    /// property (no `operationParams` check: an absent one fails the member check) and answers `null`; a missing or
    /// ill-typed value → 40001 `'<prop>' parameter should be a <type>`. `nil`: not a property operation of `object`.
    func property(_ operation: String, of object: MediaObject, _ params: Any?) throws(RequestFailure) -> Any? {
        let isGetter = operation.hasPrefix("get")
        guard isGetter || operation.hasPrefix("set") else { return nil }
        let capitalized = operation.dropFirst(3)
        guard let first = capitalized.first,
              let spec = Self.properties.first(where: {
                  $0.name == first.lowercased() + capitalized.dropFirst() && $0.classes.contains(object.kind)
              })
        else { return nil }
        if isGetter {
            return (object.properties[spec.name] ?? spec.initial)?.json ?? object.id
        }
        let value = try Self.marshal(params as? [String: Any] ?? [:], spec.name, spec.type, required: true)
        let stored: PropertyValue
        switch spec.type {
        case .integer: stored = .int(value as? Int ?? 0)
        case .boolean: stored = .bool(value as? Bool ?? false)
        default: stored = .string(value as? String ?? "")
        }
        state.withLock { s in
            if object.kind == .serverManager {
                s.world.serverManager.properties[spec.name] = stored
            } else {
                s.world.objects[object.id]?.properties[spec.name] = stored
            }
        }
        return NSNull()
    }
}
