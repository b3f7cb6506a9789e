/// What happens to a ``KurentoClient``'s connection and KMS session (docs/kurento.md#sessions), in order.
public enum KurentoConnectionEvent: Sendable, Hashable, CustomStringConvertible {
    /// A new KMS session is open: after ``KurentoClient/connect()``, or after a loss that ended the old one.
    /// `serverId` identifies the KMS process (it changes when KMS restarts).
    case connected(sessionId: String, serverId: String?)
    /// The connection dropped; the client reconnects into its session.
    case reconnecting
    /// Reconnected into the same session: KMS still has every object, subscription and pending answer.
    case resumed
    /// The session is gone (KMS restarted, or collected it): every object this client had is lost, and every
    /// event stream ended. A new session follows as ``connected(sessionId:serverId:)``.
    case sessionLost(String)
    /// The client gave up reconnecting (``KurentoClient/Configuration/sessionRetention`` passed) or was closed;
    /// its objects are lost. A later call connects again, into a new session.
    case disconnected(String)

    public var description: String {
        switch self {
        case .connected(let sessionId, let serverId):
            "connected (session \(sessionId.prefix(8))…\(serverId.map { ", server \($0.prefix(8))…" } ?? ""))"
        case .reconnecting: "reconnecting"
        case .resumed: "resumed"
        case .sessionLost(let reason): "session lost: \(reason)"
        case .disconnected(let reason): "disconnected: \(reason)"
        }
    }
}
