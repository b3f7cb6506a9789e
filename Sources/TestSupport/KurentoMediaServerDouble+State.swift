import Foundation
import PeerManager

extension KurentoMediaServerDouble {
    /// Everything the double holds, behind one lock: the media world of this "process lifetime" (replaced by
    /// ``restart()``), the WebSocket connections and their session pairings, the faults the test armed, and counters.
    struct State: Sendable {
        var world: World
        /// The open connections by id (stalled ones included until they are cut).
        var sockets: [Int: Socket] = [:]
        var nextSocketID = 0
        /// WST7 `connections` / `connectionsReverse`: one session per socket and one socket per session.
        var sessionOfSocket: [Int: String] = [:]
        var socketOfSession: [String: Int] = [:]
        /// The listening socket; `nil` while paused or stopped.
        var listener: Listener?
        var stopped = false
        var faults = Faults()
        var counts = RequestCounts()
        var replayedRequests = 0
        var eventsSent = 0
        var stalledConnections = 0
        var collections = 0
    }

    /// What a KMS process holds and loses when it restarts.
    struct World: Sendable {
        /// SM7 `connect`: one UUID per KMS process, returned as `serverId`.
        let serverID: String
        /// Bumped by every restart: work read from an older connection is dropped, as the old process died with it.
        let epoch: Int
        /// The SDP side of every WebRtcEndpoint (one PeerManager connection per endpoint, keyed by the object id).
        let peers: PeerManager
        /// The pipelines and elements (the ServerManager is not among them).
        var objects: [String: MediaObject] = [:]
        var serverManager: MediaObject
        /// Object ids in creation order (events and introspection iterate in this order).
        var order: [String] = []
        /// MSET sessions: their keep-alive flag and the objects they reference.
        var sessions: [String: MediaSession] = [:]
        /// Whether an endpoint of this world ever connected (its ICE): until one has, no media can flow anywhere.
        var anEndpointConnected = false
        /// Element connections, in the order they were made.
        var links: [Link] = []
        /// Subscriptions by their uuid.
        var subscriptions = SubscriptionTable()
        /// RC: replies by (sessionId, request id as a string).
        var cache: [CacheKey: CachedReply] = [:]
        /// The cache's keys in the order their replies were stored, which is the order they expire in, from
        /// `cacheHead` on (``dropExpiredReplies(now:)``).
        var cacheOrder: [(key: CacheKey, expires: ContinuousClock.Instant)] = []
        var cacheHead = 0
        var nextCandidatePort: Int

        init(epoch: Int, candidatePort: Int) {
            serverID = Self.uuid()
            self.epoch = epoch
            peers = PeerManager()
            nextCandidatePort = candidatePort
            serverManager = MediaObject(
                id: KurentoMediaServerDouble.serverManagerID, kind: .serverManager, pipeline: nil,
                creationTime: Int(Date().timeIntervalSince1970))
        }

        /// A lowercase UUID, as KMS `generateUUID()` writes them.
        static func uuid() -> String { UUID().uuidString.lowercased() }
    }

    /// One MSET session.
    struct MediaSession: Sendable {
        /// Set by every keep-alive; the collector clears it, and removes a session it finds clear.
        var alive = true
        var objects: Set<String> = []
    }

    /// The classes the double can create.
    enum Kind: String, Sendable, CaseIterable {
        case mediaPipeline = "MediaPipeline"
        case webRtcEndpoint = "WebRtcEndpoint"
        case passThrough = "PassThrough"
        /// Never created by `create`: the one ServerManager exists from the start.
        case serverManager = "ServerManager"
    }

    /// One media object (pipeline or element).
    struct MediaObject: Sendable {
        let id: String
        let kind: Kind
        /// The pipeline of an element; `nil` for a pipeline.
        let pipeline: String?
        /// Seconds since 1970 (CORE-KMD `creationTime`).
        let creationTime: Int
        var properties: [String: PropertyValue] = [:]
        var tags: [String: String] = [:]
        var webRtc: WebRtc?
        var flowingIn: Set<String> = []
        var flowingOut: Set<String> = []

        var isElement: Bool { kind == .webRtcEndpoint || kind == .passThrough }
    }

    /// A stored property value (the types KMS properties of the double's classes have).
    enum PropertyValue: Sendable, Equatable {
        case int(Int)
        case string(String)
        case bool(Bool)

        var json: Any {
            switch self {
            case .int(let value): value
            case .string(let value): value
            case .bool(let value): value
            }
        }
    }

    /// The SDP and ICE state of a WebRtcEndpoint.
    struct WebRtc: Sendable {
        enum Negotiation: Sendable { case none, offerProcessed, offerGenerated, answerProcessed }
        /// The constructor's `recvonly` / `sendonly` / `useDataChannels`.
        var recvonly = false
        var sendonly = false
        var useDataChannels = false
        var negotiation = Negotiation.none
        var localSDP: String?
        var remoteSDP: String?
        /// Candidates that arrived before any description (applied once the offer is processed).
        var earlyCandidates: [IceCandidateValue] = []
        var remoteCandidates = 0
        var gathered = false
        var iceConnected = false
        /// One per ICE transport of the local description: the m-line (mid and index) that carries it.
        var transports: [Transport] = []
        /// AUDIO / VIDEO the client sends to the endpoint, and those the endpoint sends to the client.
        var clientSends: Set<String> = []
        var endpointSends: Set<String> = []

        /// An offer was processed or an answer to our offer was: the SDP negotiation is complete.
        var isNegotiated: Bool { negotiation == .offerProcessed || negotiation == .answerProcessed }
        /// Whether a local description exists (the transports exist and can gather).
        var hasLocalDescription: Bool { negotiation != .none }
    }

    /// An ICE transport of an endpoint's local description.
    struct Transport: Sendable {
        var mid: String
        var index: Int
        var ufrag: String
    }

    /// A remote candidate as signaled in `addIceCandidate`.
    struct IceCandidateValue: Sendable {
        var candidate: String
        var sdpMid: String
        var sdpMLineIndex: Int
    }

    /// One element connection for one media type.
    struct Link: Sendable, Equatable {
        var source: String
        var sink: String
        var mediaType: String
        var sourceDescription: String
        var sinkDescription: String
    }

    /// One `subscribe`.
    struct Subscription: Sendable {
        var session: String
        var object: String
        var type: String
    }

    struct CacheKey: Hashable, Sendable {
        var session: String
        var requestID: String
    }

    struct CachedReply: Sendable {
        /// The reply as sent (with the original request id).
        var text: String
        /// The session of a successful reply (the socket is tied to it again on a replay).
        var resultSession: String?
        var expires: ContinuousClock.Instant
    }

    /// The faults a test armed.
    struct Faults: Sendable {
        var delays: [Delay] = []
        var refusedCreates = 0
        var threadsLimit = 0
        var corruptNextAnswer = false
    }

    /// Requests held before they run: for a time, or until a test opens a gate.
    struct Delay: Sendable {
        enum Hold: Sendable {
            case duration(Duration)
            case gate(BlockingGate)
        }

        var methods: Set<String>
        var operations: Set<String>
        var hold: Hold
    }
}
