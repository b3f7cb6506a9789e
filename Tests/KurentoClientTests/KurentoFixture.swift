import KurentoClient
import PeerManager
import SDP
import SignalingSupport
import TestSupport
import Testing

/// A Kurento Media Server double and a client of it, with timings scaled for tests.
struct KurentoFixture {
    let kms: KurentoMediaServerDouble
    let client: KurentoClient

    init(requestTimeout: Duration = .seconds(5), lateAnswerWindow: Duration = .seconds(10),
         garbageCollectorPeriod: Duration = .seconds(240)) throws {
        kms = try KurentoMediaServerDouble(configuration: .init(garbageCollectorPeriod: garbageCollectorPeriod))
        client = KurentoClient(url: kms.url, configuration: .init(
            requestTimeout: requestTimeout, lateAnswerWindow: lateAnswerWindow, heartbeat: nil))
    }

    /// A browser-like offer (audio and video, `direction`) from PeerManager.
    static func offer(_ direction: MediaDirection = .sendonly) async throws -> String {
        try await PeerManager().generateOffer(for: "client", media: .audioVideo(direction: direction))
    }

    func stop() async {
        await client.close()
        kms.stop()
    }
}

/// Collects a client's connection events, to wait for one with a deadline.
final class ConnectionLog: Sendable {
    private let events = Arrivals<KurentoConnectionEvent>("connection events")

    init(_ client: KurentoClient) {
        client.observeConnection { [events] event in events.append(event) }
    }

    var all: [KurentoConnectionEvent] { events.all }

    /// Waits until an event matching `matches` was seen.
    func wait(for what: String, _ matches: @escaping @Sendable (KurentoConnectionEvent) -> Bool) async throws {
        try await events.first(what, where: matches)
    }
}

/// The ``KurentoError`` `body` throws; records an issue when it succeeds or throws something else.
func kurentoError(_ what: String, _ body: () async throws -> Void) async -> KurentoError? {
    do {
        try await body()
        Issue.record("\(what) succeeded")
        return nil
    } catch let error as KurentoError {
        return error
    } catch {
        Issue.record("\(what) threw \(error), not a KurentoError")
        return nil
    }
}
