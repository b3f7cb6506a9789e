/// The direction attribute of a media section or session (RFC 8866 §6.7, RFC 3264 §5.1).
public enum MediaDirection: String, Hashable, Sendable, Codable, CaseIterable {
    /// `a=sendrecv`, the default when no direction is given.
    case sendrecv
    /// `a=sendonly`.
    case sendonly
    /// `a=recvonly`.
    case recvonly
    /// `a=inactive`.
    case inactive

    /// The direction seen from the other side: sendonly ↔ recvonly (RFC 3264 §6.1).
    public var reversed: MediaDirection {
        switch self {
        case .sendonly: .recvonly
        case .recvonly: .sendonly
        case .sendrecv, .inactive: self
        }
    }

    /// `true` for sendrecv and sendonly.
    public var sends: Bool { self == .sendrecv || self == .sendonly }
    /// `true` for sendrecv and recvonly.
    public var receives: Bool { self == .sendrecv || self == .recvonly }
}
