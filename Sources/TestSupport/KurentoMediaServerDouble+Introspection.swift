import Foundation
import SignalingSupport
import PeerManager
public import SDP

/// What tests read from the double.
extension KurentoMediaServerDouble {
    /// The requests that ran, by method and by `invoke` operation. A reply replayed from the request cache does not
    /// count (see ``replayedRequests``), nor does a request refused before any method (malformed, unknown method).
    public struct RequestCounts: Sendable, Equatable {
        /// Runs by method (`create`, `invoke`, …).
        public var methods: [String: Int] = [:]
        /// `invoke` runs by operation (`processOffer`, …).
        public var operations: [String: Int] = [:]
    }

    /// One element connection for one media type.
    public struct ElementConnection: Sendable, Hashable {
        /// The source element.
        public var source: String
        /// The sink element.
        public var sink: String
        /// `AUDIO`, `VIDEO` or `DATA`.
        public var mediaType: String
        /// The source's media description (`default`).
        public var sourceDescription: String
        /// The sink's media description (`default`).
        public var sinkDescription: String
    }

    /// The simulated media state of an element.
    public struct MediaFlowState: Sendable, Equatable {
        /// Whether the endpoint's ICE "connected" (always `false` for a PassThrough).
        public var iceConnected: Bool
        /// Whether it gathered (emitted) its candidates.
        public var gathered: Bool
        /// The kinds (`AUDIO`, `VIDEO`) flowing in.
        public var flowingIn: Set<String>
        /// The kinds flowing out.
        public var flowingOut: Set<String>
    }

    /// The `serverId` of the current process lifetime (a new one after ``restart()``).
    public var serverId: String { state.withLock { $0.world.serverID } }

    /// The number of pipelines and elements alive (the ServerManager excluded).
    public var liveObjectCount: Int { state.withLock { $0.world.objects.count } }

    /// The live pipelines and elements: id → type (`MediaPipeline`, `WebRtcEndpoint`, `PassThrough`).
    public var liveObjects: [String: String] {
        state.withLock { s in s.world.objects.mapValues(\.kind.rawValue) }
    }

    /// The live pipelines, in creation order.
    public var pipelines: [String] {
        state.withLock { s in s.world.order.filter { s.world.objects[$0]?.kind == .mediaPipeline } }
    }

    /// The connections `id` is the source or the sink of, in the order they were made.
    public func connections(of id: String) -> [ElementConnection] {
        state.withLock { s in
            s.world.links.filter { $0.source == id || $0.sink == id }.map {
                ElementConnection(source: $0.source, sink: $0.sink, mediaType: $0.mediaType,
                                  sourceDescription: $0.sourceDescription, sinkDescription: $0.sinkDescription)
            }
        }
    }

    /// The number of live subscriptions (each `subscribe` counts, repeated ones too).
    public var subscriptionCount: Int { state.withLock { $0.world.subscriptions.count } }

    /// The media set's sessions (those an object was created or touched in, not yet collected or closed), sorted.
    public var sessions: [String] { state.withLock { $0.world.sessions.keys.sorted() } }

    /// The open WebSocket connections (stalled ones included).
    public var connectionCount: Int { state.withLock { $0.sockets.count } }

    /// The WebSocket connections accepted since the double started, open or not.
    public var connectionsAccepted: Int { state.withLock { $0.nextSocketID } }

    /// The events written to a socket so far (an event sent to two sessions counts twice). Events are sent on a
    /// queue of their own, after the request that raised them was answered: see ``statistics()``.
    public var eventsSent: Int { state.withLock { $0.eventsSent } }

    /// The requests that ran, by method and operation.
    public var requestCounts: RequestCounts { state.withLock { $0.counts } }

    /// The requests answered from the request cache without running.
    public var replayedRequests: Int { state.withLock { $0.replayedRequests } }

    /// The connections the double stopped reading because a frame was not JSON.
    public var stalledConnections: Int { state.withLock { $0.stalledConnections } }

    /// The garbage collections run so far (by the timer or ``collectGarbage()``).
    public var collectionCount: Int { state.withLock { $0.collections } }

    /// The simulated media state of element `id`; `nil` when it does not exist.
    public func flowState(of id: String) -> MediaFlowState? {
        state.withLock { s in
            s.world.objects[id].flatMap { object in
                guard object.isElement else { return nil }
                return MediaFlowState(
                    iceConnected: object.webRtc?.iceConnected ?? false, gathered: object.webRtc?.gathered ?? false,
                    flowingIn: object.flowingIn, flowingOut: object.flowingOut)
            }
        }
    }

    /// The remote description of endpoint `id` with the candidates applied to it since; `nil` before there is one.
    public func remoteDescription(of id: String) async -> SessionDescription? {
        let peers = state.withLock { $0.world.peers }
        return await peers.connection(id)?.remoteDescription?.description
    }
}
