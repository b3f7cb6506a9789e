extension KurentoMediaServerDouble {
    /// The kinds whose flow the double simulates (MEI `padTypeToMediaType` has no DATA flow).
    static let flowKinds = ["AUDIO", "VIDEO"]

    /// Recomputes every element's simulated media flow and emits the changes: first every `MediaFlowInStateChanged`,
    /// then every `MediaFlowOutStateChanged`, elements in creation order, AUDIO before VIDEO (the model is in the
    /// class comment; KMS derives these from real RTP in MEI `mediaFlowInStateChanged` / `…Out…`).
    func updateMediaFlow(in s: inout State) {
        // Media comes only from the clients of connected endpoints: until one connected, nothing flows or ever did,
        // and the walk over every element (a thousand clients' storm, `make bench`) would change nothing.
        guard s.world.anEndpointConnected else { return }
        let elements = s.world.order.compactMap { s.world.objects[$0] }.filter(\.isElement)
        let flowingIn = elements.map { incoming($0, in: s, visited: []) }
        let flowingOut = elements.indices.map { index in
            let element = elements[index]
            return Set(Self.flowKinds.filter { kind in
                switch element.kind {
                case .webRtcEndpoint:
                    guard let rtc = element.webRtc, rtc.iceConnected, rtc.endpointSends.contains(kind) else { return false }
                    return source(of: element.id, kind, in: s).map { hasMedia($0, kind, in: s, visited: []) } ?? false
                default:
                    return flowingIn[index].contains(kind)
                        && s.world.links.contains { $0.source == element.id && $0.mediaType == kind }
                }
            })
        }
        // Only what changed is written and announced: a thousand clients' storm made every connect rewrite every
        // element (`make bench`).
        for (index, element) in elements.enumerated() where flowingIn[index] != element.flowingIn {
            for kind in Self.flowKinds where flowingIn[index].contains(kind) != element.flowingIn.contains(kind) {
                emitFlow("MediaFlowInStateChanged", element.id, kind, flowing: flowingIn[index].contains(kind), in: &s)
            }
            s.world.objects[element.id]?.flowingIn = flowingIn[index]
        }
        for (index, element) in elements.enumerated() where flowingOut[index] != element.flowingOut {
            for kind in Self.flowKinds where flowingOut[index].contains(kind) != element.flowingOut.contains(kind) {
                emitFlow("MediaFlowOutStateChanged", element.id, kind, flowing: flowingOut[index].contains(kind), in: &s)
            }
            s.world.objects[element.id]?.flowingOut = flowingOut[index]
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
