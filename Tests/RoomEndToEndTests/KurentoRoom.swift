import KurentoClient
import PeerManager
import RoomClient
import RoomProtocol
import RoomServer
import SDP
import SignalingSupport
import TestSupport

/// A RoomServer whose media comes from the Kurento Media Server double through ``KurentoMediaBackend``.
struct KurentoRoom {
    let kms: KurentoMediaServerDouble
    let backend: KurentoMediaBackend
    let server: RoomServer

    static func start(timeout: Duration = .seconds(5), reconnectionWindow: Duration = .seconds(10),
                      operations: OperationsConfiguration = .init()) async throws -> KurentoRoom
    {
        let kms = try KurentoMediaServerDouble()
        let backend = KurentoMediaBackend(configuration: .init(
            urls: [kms.url], timeout: timeout, client: .init(lateAnswerWindow: .seconds(20), heartbeat: nil),
            reconnectInterval: .milliseconds(100)))
        let server = try await RoomServer.start(.init(media: backend, reconnectionWindow: reconnectionWindow,
                                                      operations: operations))
        return KurentoRoom(kms: kms, backend: backend, server: server)
    }

    func stop() async {
        await server.shutdown()
        kms.stop()
    }

    /// The live objects of the double of `type` (`MediaPipeline`, `WebRtcEndpoint`).
    func objects(_ type: String) -> [String] { kms.liveObjects.filter { $0.value == type }.map(\.key) }

    /// Waits until the double holds no media object at all.
    func waitUntilEmpty(_ what: String) async throws {
        try await waitUntil("no media object left after \(what)") { kms.liveObjectCount == 0 }
    }

    /// A user whose client restores its media itself (``RoomClient/Configuration/offerProvider``), through its own
    /// PeerManager: a fresh connection per offer.
    static func restoringUser(_ name: String, room: String, url: String) -> RoomUser {
        let peers = PeerManager()
        let provider = OfferProvider(
            offer: { endpoint in
                let id = endpoint.endpointName(ownName: name)
                await peers.closeConnection(id)
                let direction: MediaDirection = endpoint == .publisher ? .sendonly : .recvonly
                return try await peers.generateOffer(for: id, media: .audioVideo(direction: direction))
            },
            answer: { endpoint, answer in
                try await peers.processAnswer(answer, for: endpoint.endpointName(ownName: name))
            })
        return RoomUser(name, room: room, url: url, configuration: .init(offerProvider: provider))
    }
}
