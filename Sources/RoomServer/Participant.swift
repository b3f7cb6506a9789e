import JSONRPC
import RoomProtocol

/// One participant's state in a ``Room``, as the registry keeps it (a value; the registry's lock guards it).
struct Participant: Sendable {
    /// Where a join stands: reserved (the authorizer is running) or done. Only joined participants are visible.
    enum Phase: Sendable, Hashable {
        case joining
        case joined
    }

    /// Where publishing stands: `starting` while the backend answers the offer.
    enum Publishing: Sendable, Hashable {
        case idle
        case starting
        case live
    }

    /// One of the participant's endpoints. Candidates that arrive before it exists wait here
    /// (docs/wire-protocol.md#room).
    enum Endpoint: Sendable, Hashable {
        /// Candidates arrived, but no publish or receive call yet.
        case awaiting([MediaCandidate])
        /// The publish or receive call is at the backend.
        case creating([MediaCandidate])
        /// The backend created it: candidates go straight to the backend.
        case ready
    }

    let name: String
    /// The confusable skeleton of ``name`` (``RoomNaming/skeleton(_:)``): a room holds each at most once.
    let skeleton: String
    let session: ServerSession
    let outbox: SessionOutbox
    var phase = Phase.joining
    var publishing = Publishing.idle
    var endpoints = Endpoints()
    /// Whether media flows on each endpoint, by direction and kind, as the backend last reported
    /// (``MediaEvent/flow(_:_:)``); reset when an endpoint is reserved again.
    var flows: [RoomEndpoint: [MediaFlow.Direction: [String: Bool]]] = [:]

    init(name: String, skeleton: String, session: ServerSession, outbox: SessionOutbox) {
        self.name = name
        self.skeleton = skeleton
        self.session = session
        self.outbox = outbox
    }

    /// The participant as the `joinRoom` result lists it: `streams` only while publishing.
    var listing: RoomParticipant {
        RoomParticipant(id: name, streams: publishing == .live ? [.init()] : [])
    }

    /// Client candidates queued across all endpoints (docs/wire-protocol.md#limits).
    var queuedCandidates: Int {
        endpoints.values.reduce(0) { total, endpoint in
            switch endpoint {
            case .awaiting(let queue), .creating(let queue): total + queue.count
            case .ready: total
            }
        }
    }
}
