extension KurentoMediaServerDouble {
    /// The kinds whose flow the double simulates (MEI `padTypeToMediaType` has no DATA flow).
    static let flowKinds = ["AUDIO", "VIDEO"]

    /// Recomputes every element's simulated media flow and emits the changes: first every `MediaFlowInStateChanged`,
    /// then every `MediaFlowOutStateChanged`, elements in creation order, AUDIO before VIDEO (the model is in the
    /// class comment; KMS derives these from real RTP in MEI `mediaFlowInStateChanged` / `…Out…`).
    func updateMediaFlow(in s: inout State) {
        let elements = s.world.order.compactMap { s.world.objects[$0] }.filter(\.isElement)
        var flowingIn: [String: Set<String>] = [:]
        for element in elements { flowingIn[element.id] = incoming(element, in: s, visited: []) }
        var flowingOut: [String: Set<String>] = [:]
        for element in elements {
            flowingOut[element.id] = Set(Self.flowKinds.filter { kind in
                switch element.kind {
                case .webRtcEndpoint:
                    guard let rtc = element.webRtc, rtc.iceConnected, rtc.endpointSends.contains(kind) else { return false }
                    return source(of: element.id, kind, in: s).map { hasMedia($0, kind, in: s, visited: []) } ?? false
                default:
                    return flowingIn[element.id]?.contains(kind) == true
                        && s.world.links.contains { $0.source == element.id && $0.mediaType == kind }
                }
            })
        }
        for element in elements {
            let now = flowingIn[element.id] ?? []
            for kind in Self.flowKinds where now.contains(kind) != element.flowingIn.contains(kind) {
                emitFlow("MediaFlowInStateChanged", element.id, kind, flowing: now.contains(kind), in: &s)
            }
            s.world.objects[element.id]?.flowingIn = now
        }
        for element in elements {
            let now = flowingOut[element.id] ?? []
            for kind in Self.flowKinds where now.contains(kind) != element.flowingOut.contains(kind) {
                emitFlow("MediaFlowOutStateChanged", element.id, kind, flowing: now.contains(kind), in: &s)
            }
            s.world.objects[element.id]?.flowingOut = now
        }
    }

    /// What flows into `element`: from its client for a connected endpoint, from its source for a PassThrough.
    private func incoming(_ element: MediaObject, in s: State, visited: Set<String>) -> Set<String> {
        switch element.kind {
        case .webRtcEndpoint:
            guard let rtc = element.webRtc, rtc.iceConnected else { return [] }
            return rtc.clientSends
        default:
            return Set(Self.flowKinds.filter { kind in
                source(of: element.id, kind, in: s).map { hasMedia($0, kind, in: s, visited: visited) } ?? false
            })
        }
    }

    /// Whether `id` puts media of `kind` into the pipeline (a cycle of PassThroughs has none).
    private func hasMedia(_ id: String, _ kind: String, in s: State, visited: Set<String>) -> Bool {
        guard !visited.contains(id), let element = s.world.objects[id] else { return false }
        return incoming(element, in: s, visited: visited.union([id])).contains(kind)
    }

    /// The source connected to `sink` for `kind` on its default pad.
    private func source(of sink: String, _ kind: String, in s: State) -> String? {
        s.world.links.first { $0.sink == sink && $0.mediaType == kind && $0.sinkDescription == "default" }?.source
    }

    /// KMS: CORE-KMD MediaFlowIn/OutStateChanged: `state`, `padName` ("default": MEI keys its pads by media
    /// description), `mediaType`.
    private func emitFlow(_ type: String, _ id: String, _ kind: String, flowing: Bool, in s: inout State) {
        emit(type, from: id, ["state": flowing ? "FLOWING" : "NOT_FLOWING", "padName": "default", "mediaType": kind],
             in: &s)
    }
}
