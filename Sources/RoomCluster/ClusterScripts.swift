/// The Lua scripts that make a name claim and its release atomic in Redis (no two nodes can both win a name,
/// and a node only ever removes what it holds).
enum ClusterScripts {
    /// KEYS: room members hash, node members set. ARGV: user, node id, member entry. 1 when the name is now this
    /// node's, else 0. Idempotent for this node: a name the hash already gives this node (a claim of ours that ran
    /// though its reply was lost, or a leftover) is claimed again, and listed in the node's set. Atomic: "Redis
    /// guarantees that a script is executed in an atomic way: no other script or Redis command will be executed
    /// while a script is being executed" (https://redis.io/commands/eval, "Atomicity of scripts").
    static let claim = """
        local holder = redis.call('HGET', KEYS[1], ARGV[1])
        if holder and holder ~= ARGV[2] then return 0 end
        if not holder then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
        redis.call('SADD', KEYS[2], ARGV[3])
        return 1
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

    /// KEYS: the node's members set. ARGV: node id, key prefix, then the member entries (`room\nuser`) the node
    /// holds. Makes Redis's view of the node's participants what it holds: each held name is claimed again unless
    /// another node has it (reported in the first list, and dropped from the set), and each name of the set the
    /// node no longer holds is released if still the node's (reported in the second list). Returns {taken,
    /// released}. The room keys are built in the script from the prefix (one Redis, not Redis Cluster: keys a
    /// script computes are fine there, https://redis.io/docs/latest/develop/programmability/eval-intro/).
    static let reconcile = """
        local node, prefix = ARGV[1], ARGV[2]
        local function split(entry)
          local at = string.find(entry, '\\n', 1, true)
          return string.sub(entry, 1, at - 1), string.sub(entry, at + 1)
        end
        local held = {}
        for i = 3, #ARGV do held[ARGV[i]] = true end
        local released = {}
        for _, entry in ipairs(redis.call('SMEMBERS', KEYS[1])) do
          if not held[entry] then
            local room, user = split(entry)
            local members = prefix .. 'room:' .. room .. ':members'
            if redis.call('HGET', members, user) == node then
              redis.call('HDEL', members, user)
              redis.call('SREM', prefix .. 'room:' .. room .. ':publishers', user)
              table.insert(released, entry)
            end
            redis.call('SREM', KEYS[1], entry)
          end
        end
        local taken = {}
        for i = 3, #ARGV do
          local room, user = split(ARGV[i])
          local members = prefix .. 'room:' .. room .. ':members'
          if redis.call('HSETNX', members, user, node) == 1 or redis.call('HGET', members, user) == node then
            redis.call('SADD', KEYS[1], ARGV[i])
          else
            redis.call('SREM', KEYS[1], ARGV[i])
            table.insert(taken, ARGV[i])
          end
        end
        return {taken, released}
        """

    /// KEYS: the node's heartbeat key, its members set, the `nodes` set. ARGV: node id. After a failed start:
    /// removes the heartbeat, and the node from `nodes` unless it still lists participants for a sweep to remove.
    static let abandon = """
        redis.call('DEL', KEYS[1])
        if redis.call('SCARD', KEYS[2]) == 0 then redis.call('SREM', KEYS[3], ARGV[1]) end
        return 1
        """
}
