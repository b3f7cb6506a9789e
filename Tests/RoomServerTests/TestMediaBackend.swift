import RoomProtocol
import RoomServer
import SignalingSupport

/// A TEST DOUBLE of ``MediaBackend``: its "answers" are marker strings, not SDP, and it records what the server
/// asked of it. It can hold `create…` calls until the test opens ``gate``, to send candidates while a publish
/// or receive is in flight, and ``report(_:)`` what a media server reports after the fact (media flow, failures).
/// Production answers come from PeerManager's answer builder, not from here.
final class TestMediaBackend: MediaBackend {
    struct Record: Sendable {
        var created: [MediaEndpointID] = []
        var candidates: [(MediaCandidate, MediaEndpointID)] = []
        var released: [MediaEndpointID] = []
        var loopbacks: [Bool] = []
    }
    let record = LockedValue(Record())
    /// What ``mediaServer(of:)`` answers, for every scope.
    let servedBy = LockedValue<String?>(nil)
    private let sinks = MediaEventSinks()
    /// How many server candidates each `create…` call answers with: ``serverCandidate``, then the same on the
    /// next ports.
    let candidatesPerEndpoint: Int
    private let held = LockedValue<(holding: Bool, waiting: Int, waiters: [CheckedContinuation<Void, Never>])>(
        (false, 0, []))

    /// The marker answer for `endpoint`.
    static func answer(for endpoint: MediaEndpointID) -> String { "test-answer \(endpoint)" }

    /// The (first) server candidate of each endpoint.
    static let serverCandidate = serverCandidate(0)

    /// Server candidate `index` of each endpoint: port 50000 + `index`.
    static func serverCandidate(_ index: Int) -> MediaCandidate {
        MediaCandidate(candidate: "candidate:1 1 UDP 2013266431 127.0.0.1 \(50000 + index) typ host", sdpMid: "video",
                       sdpMLineIndex: 0)
    }

    init(candidatesPerEndpoint: Int = 1) { self.candidatesPerEndpoint = candidatesPerEndpoint }

    private var serverCandidates: [MediaCandidate] { (0..<candidatesPerEndpoint).map(Self.serverCandidate) }

    /// From now on `create…` calls wait until ``open()``.
    func hold() { held.withLock { $0.holding = true } }

    /// The number of `create…` calls waiting.
    var waitingCalls: Int { held.withLock { $0.waiting } }

    /// Lets every held call proceed, and stops holding.
    func open() {
        let waiters = held.withLock { h -> [CheckedContinuation<Void, Never>] in
            h.holding = false
            defer { h.waiters = [] }
            return h.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func gate() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let wait = held.withLock { h -> Bool in
                guard h.holding else { return false }
                h.waiting += 1
                h.waiters.append(continuation)
                return true
            }
            if !wait { continuation.resume() }
        }
    }

    func createPublisher(_ endpoint: MediaEndpointID, offer: String, loopback: Bool) async throws -> MediaAnswer {
        await gate()
        record.withLock {
            $0.created.append(endpoint)
            $0.loopbacks.append(loopback)
        }
        return MediaAnswer(sdp: Self.answer(for: endpoint), candidates: serverCandidates)
    }

    func createSubscriber(_ endpoint: MediaEndpointID, offer: String) async throws -> MediaAnswer {
        await gate()
        record.withLock { $0.created.append(endpoint) }
        return MediaAnswer(sdp: Self.answer(for: endpoint), candidates: serverCandidates)
    }

    func addCandidate(_ candidate: MediaCandidate, to endpoint: MediaEndpointID) async throws {
        record.withLock { $0.candidates.append((candidate, endpoint)) }
    }

    func release(_ endpoint: MediaEndpointID) async {
        record.withLock { $0.released.append(endpoint) }
    }

    func attach(_ sink: MediaEventSink) { sinks.attach(sink) }

    func mediaServer(of scope: MediaScope) -> String? { servedBy.withLock { $0 } }

    /// Reports `event` to the servers that use this backend, as a media server would after the fact.
    func report(_ event: MediaEvent) { sinks.report(event) }
}
