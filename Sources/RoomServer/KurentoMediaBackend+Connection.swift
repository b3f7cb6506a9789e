import KurentoClient
import SignalingSupport
import Logging

/// Each KMS connection: kept up, and a lost session fails every room and tree on it (docs/kurento.md#faults).
extension KurentoMediaBackend {
    /// Keeps client `index` connected: dials it again every ``Configuration/reconnectInterval`` while it is down.
    func supervise(_ index: Int) async {
        let client = clients[index]
        while !Task.isCancelled {
            if !client.isConnected {
                do {
                    try await client.connect()
                } catch {
                    logger.debug("kms not reachable", metadata: ["kms": "\(client.name)", "error": "\(error)"])
                }
            }
            do { try await clock.sleep(for: configuration.reconnectInterval) } catch { return }
        }
    }

    /// A KMS session that is gone (KMS restarted, collected it, or stayed unreachable past the client's retention)
    /// takes every object on that KMS with it: each room and tree it served fails (``MediaEvent/scopeFailed(_:reason:)``)
    /// and is rebuilt when clients publish and subscribe again.
    func connectionChanged(_ event: KurentoConnectionEvent, kms index: Int) {
        let reason: String
        // Only a lost session means the pipelines are gone from KMS for every node; an unreachable KMS may still
        // serve the other nodes of a cluster.
        let gone: Bool
        switch event {
        case .sessionLost:
            gone = true
            reason = "Kurento Media Server \(clients[index].name) restarted or lost the session: this media is gone; "
                + "publish and subscribe again"
        case .disconnected(let why):
            gone = false
            reason = "Kurento Media Server \(clients[index].name) is unreachable (\(why)): this media is gone; "
                + "publish and subscribe again"
        case .connected, .reconnecting, .resumed:
            return
        }
        let scopes = state.withLock { s -> [(MediaScope, MediaPipeline?)] in
            guard !s.shuttingDown else { return [] }
            return s.scopes.filter { $0.value.kms == index }.map { scope, record in
                if case .ready(let pipeline) = record.pipeline { (scope, pipeline) } else { (scope, nil) }
            }
        }
        for (scope, pipeline) in scopes {
            logger.warning("media lost", metadata: ["scope": "\(scope)", "kms": "\(clients[index].name)"])
            failScope(scope, reason: reason, gone: gone ? pipeline : nil)
        }
    }
}
