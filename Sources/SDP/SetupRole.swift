/// The DTLS `a=setup` role (RFC 4145 §4, RFC 5763 §5, RFC 8842).
public enum SetupRole: String, Hashable, Sendable, Codable, CaseIterable {
    /// The endpoint initiates the connection (DTLS client).
    case active
    /// The endpoint accepts the connection (DTLS server).
    case passive
    /// Either; only legal in an offer (RFC 5763 §5).
    case actpass
    /// Hold the connection; not used in WebRTC.
    case holdconn
}
