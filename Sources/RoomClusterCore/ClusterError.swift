/// Why an operation of the cluster failed (``ClusterBackplane``; `RoomCluster` calls it `RedisError`).
public enum ClusterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The cluster's shared state (Redis, for `RoomCluster`) could not be reached, did not answer in time, or the
    /// connection broke: the cluster is unavailable until it comes back.
    case unavailable(String)
    /// The cluster's shared state answered with an error (for Redis: `-ERR …`, `-WRONGPASS …`).
    case server(String)
    /// The address of the cluster's shared state is not usable (for Redis: its URL).
    case badURL(String)

    public var description: String {
        switch self {
        case .unavailable(let reason): "cluster unavailable: \(reason)"
        case .server(let message): "cluster store error: \(message)"
        case .badURL(let reason): "bad cluster URL: \(reason)"
        }
    }
}
