import SignalingSupport
import CoreMetrics
import JSONRPC
import Logging

/// The KMS session (docs/kurento.md#sessions): opened with `connect` once the connection is up, resumed by the
/// JSON-RPC client's `connect {sessionId}` after a drop, and lost when KMS refuses it (40007) or the client gives up.
extension KurentoClient {
    /// The open session's id, after opening one if needed.
    func session() async throws(KurentoError) -> String {
        enum Next { case ready(String), wait(Task<String, any Error>), closed }
        let next = state.withLock { s -> Next in
            if s.closed { return .closed }
            if let sessionId = s.sessionId { return .ready(sessionId) }
            if let acquiring = s.acquiring { return .wait(acquiring) }
            let task = Task { try await self.openSession() }
            s.acquiring = task
            return .wait(task)
        }
        switch next {
        case .ready(let sessionId): return sessionId
        case .closed: throw KurentoError.connectionLost("the client was closed")
        case .wait(let task):
            do {
                return try await task.value
            } catch {
                throw KurentoError(error, operation: KurentoProtocol.connect, timeout: configuration.requestTimeout)
            }
        }
    }

    /// Connects, then asks KMS for a new session: `connect` without params answers `{sessionId, serverId}`
    /// (Kurento/kurento `server/media-server/server/ServerMethods.cpp`, `connect`). No other request goes out before
    /// it: a request without a `sessionId` would make KMS start a session of its own for it, whose objects its
    /// garbage collector would then take from us.
    private func openSession() async throws -> String {
        do {
            try await rpc.connect()
            let result = try await rpc.call(KurentoProtocol.connect, params: nil, timeout: configuration.requestTimeout)
            guard let sessionId = result["sessionId"]?.stringValue, !sessionId.isEmpty else {
                throw KurentoError.invalidResponse("'connect' answered \(result.redactingSessionIds.jsonText.prefix(200)), no sessionId")
            }
            let serverId = result["serverId"]?.stringValue
            let opened = state.withLock { s -> Bool in
                s.acquiring = nil
                guard !s.closed else { return false }
                s.sessionId = sessionId
                s.serverId = serverId
                return true
            }
            guard opened else { throw KurentoError.connectionLost("the client was closed") }
            publish(.connected(sessionId: sessionId, serverId: serverId))
            return sessionId
        } catch {
            state.withLock { $0.acquiring = nil }
            throw error
        }
    }

    /// Follows the JSON-RPC client's connection (in its callback order, with the events).
    func connectionChanged(_ connection: ConnectionState) {
        let hadSession = state.withLock { $0.sessionId != nil && !$0.closed }
        guard hadSession else { return }
        switch connection {
        case .reconnecting(attempt: 1):
            publish(.reconnecting)
        case .resumed:
            publish(.resumed)
        case .connected:
            // A reconnection that KMS answered with 40007: it restarted, or its garbage collector took the session.
            lose(KurentoError.connectionLost("Kurento Media Server no longer knows the session (it restarted, or "
                     + "collected the session's objects)"),
                 publishing: .sessionLost("Kurento Media Server no longer knows the session"))
            Task { try? await self.session() }
        case .disconnected(let end):
            let reason = end.map { "\($0)" } ?? "the connection ended"
            lose(KurentoError.connectionLost(reason), publishing: .disconnected(reason))
        case .connecting, .reconnecting, .rejoined:
            break
        }
    }

    /// Forgets the session and everything in it: objects, and subscriptions (each local subscriber ends with
    /// `error`). Publishes `event` when there was a session to lose.
    func lose(_ error: KurentoError, publishing event: KurentoConnectionEvent) {
        let (hadSession, lost, handlers) = state.withLock { s -> (Bool, Int, [EventHandler]) in
            let hadSession = s.sessionId != nil, lost = s.objects.count
            let handlers = s.subscriptions.values.flatMap { Array($0.handlers.values) }
            for subscription in s.subscriptions.values { subscription.confirmation.fulfill(.failure(error)) }
            s.sessionId = nil
            s.subscriptions = [:]
            s.objects = [:]
            return (hadSession, lost, handlers)
        }
        metrics?.objectsChanged(by: -lost)
        if hadSession, case .sessionLost = event { metrics?.errors[.session]?.increment() }
        for handler in handlers { handler.end(error) }
        if hadSession { publish(event) }
    }
}
