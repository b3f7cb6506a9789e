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
        switch event {
        case .sessionLost:
            reason = "Kurento Media Server \(clients[index].name) restarted or lost the session: this media is gone; "
                + "publish and subscribe again"
        case .disconnected(let why):
            reason = "Kurento Media Server \(clients[index].name) is unreachable (\(why)): this media is gone; "
                + "publish and subscribe again"
        case .connected, .reconnecting, .resumed:
            return
        }
        let scopes = state.withLock { s -> [MediaScope] in
            guard !s.shuttingDown else { return [] }
            let lost = s.scopes.filter { $0.value.kms == index }.map(\.key)
            for scope in lost {
                s.scopes[scope] = nil
                for key in s.endpoints.keys where key.scope == scope { s.endpoints[key] = nil }
            }
            return lost
        }
        for scope in scopes {
            logger.warning("media lost", metadata: ["scope": "\(scope)", "kms": "\(clients[index].name)"])
            sinks.report(.scopeFailed(scope, reason: reason))
        }
    }
}
