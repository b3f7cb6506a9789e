public import RoomClusterCore

/// Why a Redis operation failed: the cluster's error (``/RoomClusterCore/ClusterError``), which `RoomServer` sees
/// without linking this module. `unavailable`: Redis could not be reached, did not answer in time, or the connection
/// broke (the next command reconnects); `server`: Redis answered with an error (`-ERR …`, `-WRONGPASS …`); `badURL`:
/// the Redis URL is not usable.
public typealias RedisError = ClusterError
