/// Why a Redis operation failed.
public enum RedisError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Redis could not be reached, did not answer in time, or the connection broke: the cluster is unavailable
    /// until it comes back (the next command reconnects).
    case unavailable(String)
    /// Redis answered with an error (`-ERR …`, `-WRONGPASS …`).
    case server(String)
    /// The Redis URL is not usable.
    case badURL(String)

    public var description: String {
        switch self {
        case .unavailable(let reason): "cluster unavailable: \(reason)"
        case .server(let message): "Redis error: \(message)"
        case .badURL(let reason): "bad Redis URL: \(reason)"
        }
    }
}
