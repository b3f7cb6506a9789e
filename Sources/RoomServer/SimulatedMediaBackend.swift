import PeerManager
import RoomProtocol
import SDP
import SignalingSupport

/// A ``MediaBackend`` without media: every endpoint answers its offer with PeerManager's ``PeerManager/AnswerBuilder``
/// (ICE-lite, DTLS fingerprint, codecs intersected with the offer) and has one host candidate on its own port at
/// ``address`` (127.0.0.1 by default). No packet is ever sent. It is the backend of the integration tests and of
/// applications that only need signaling.
///
/// The candidate is both inlined in the answer (ICE-lite, JSEP-SDP §2.3) and returned in
/// ``MediaAnswer/candidates``, so the server also trickles it as `iceCandidate` (PROTOCOL §3) under the
/// endpoint's `endpointName`. Directions follow Kurento: a publisher endpoint only receives unless `doLoopback`
/// asks for the stream back; a subscriber endpoint only sends.
public final class SimulatedMediaBackend: MediaBackend {
    private struct State {
        var nextPort: Int
        var endpoints: [MediaEndpointID: Int] = [:]
        var candidates: [MediaEndpointID: Int] = [:]
    }

    /// The address of every endpoint's candidate.
    public let address: String
    /// The codecs, header extensions and data-channel support of every answer (address, port, candidates and
    /// directions are set per endpoint).
    public let policy: AnswerPolicy
    private let state: LockedValue<State>

    /// Creates a backend.
    /// - Parameters:
    ///   - address: The candidates' address. Default `127.0.0.1`.
    ///   - firstPort: The port of the first endpoint; each further endpoint takes the next one.
    ///   - policy: What the answers accept.
    public init(address: String = "127.0.0.1", firstPort: Int = 40000, policy: AnswerPolicy = AnswerPolicy()) {
        self.address = address
        self.policy = policy
        state = LockedValue(State(nextPort: firstPort))
    }

    /// The endpoints that exist now.
    public var endpoints: Set<MediaEndpointID> { state.withLock { Set($0.endpoints.keys) } }

    /// The client candidates added to `endpoint` so far.
    public func candidateCount(of endpoint: MediaEndpointID) -> Int { state.withLock { $0.candidates[endpoint] ?? 0 } }

    /// Answers a publisher offer: receive-only, or send-receive with `loopback`.
    public func createPublisher(_ endpoint: MediaEndpointID, offer: String, loopback: Bool)
        async throws -> MediaAnswer
    {
        try answer(endpoint, offer: offer, direction: loopback ? .sendrecv : .recvonly)
    }

    /// Answers a subscriber offer: send-only.
    public func createSubscriber(_ endpoint: MediaEndpointID, offer: String) async throws -> MediaAnswer {
        try answer(endpoint, offer: offer, direction: .sendonly)
    }

    /// Counts a client candidate; 303 for an endpoint that does not exist.
    public func addCandidate(_ candidate: MediaCandidate, to endpoint: MediaEndpointID) async throws {
        try state.withLock { s in
            guard s.endpoints[endpoint] != nil else {
                throw RoomError(.mediaEndpoint, message: "no endpoint \(endpoint)")
            }
            s.candidates[endpoint, default: 0] += 1
        }
    }

    /// Forgets the endpoint.
    public func release(_ endpoint: MediaEndpointID) async {
        state.withLock { s in
            s.endpoints[endpoint] = nil
            s.candidates[endpoint] = nil
        }
    }

    private func answer(_ endpoint: MediaEndpointID, offer text: String, direction: MediaDirection)
        throws -> MediaAnswer
    {
        let offer: SessionDescription
        do {
            offer = try SessionDescription(parsing: text)
        } catch {
            throw RoomError(.mediaSDP, message: "the offer of \(endpoint.endpointName) is not valid SDP: \(error)")
        }
        let port = state.withLock { s -> Int in
            defer { s.nextPort += 1 }
            s.endpoints[endpoint] = s.nextPort
            return s.nextPort
        }
        let candidate = CandidateAttribute(foundation: "1", priority: 2_113_937_151, address: address, port: port,
                                           type: .host)
        var policy = self.policy
        policy.address = address
        policy.port = port
        policy.candidates = [candidate]
        policy.directions = ["audio": direction, "video": direction]
        var random = SystemRandomNumberGenerator()
        let answer = AnswerBuilder.answer(
            to: offer, policy: policy, credentials: .random(using: &random),
            fingerprint: .randomSHA256(using: &random), sessionID: UInt64.random(in: 1...(1 << 62), using: &random))
        guard let index = answer.media.firstIndex(where: { $0.port != 0 }) else {
            state.withLock { _ = $0.endpoints.removeValue(forKey: endpoint) }
            throw RoomError(.mediaSDP,
                            message: "no media section of \(endpoint.endpointName)'s offer could be accepted")
        }
        let trickled = MediaCandidate(candidate: candidate.description, sdpMid: answer.media[index].mid ?? "",
                                      sdpMLineIndex: index)
        return MediaAnswer(sdp: answer.serialized(), candidates: [trickled])
    }
}
