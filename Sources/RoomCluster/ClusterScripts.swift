/// The Lua scripts that make a name claim and its release atomic in Redis (no two nodes can both win a name,
/// and a node only ever removes what it holds).
enum ClusterScripts {
    /// KEYS: room members hash, node members set. ARGV: user, node id, member entry. 1 when claimed, else 0.
    static let claim = """
        if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 1 then
          redis.call('SADD', KEYS[2], ARGV[3])
          return 1
        end
        return 0
        """

    /// KEYS: room members hash, room publishers set, node members set. ARGV: user, node id, member entry.
    /// 1 when it was the node's and is now gone, else 0.
    static let release = """
        if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
          redis.call('HDEL', KEYS[1], ARGV[1])
          redis.call('SREM', KEYS[2], ARGV[1])
          redis.call('SREM', KEYS[3], ARGV[3])
          return 1
        end
        return 0
        """
}
