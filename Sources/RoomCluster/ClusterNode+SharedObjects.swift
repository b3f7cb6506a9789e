/// Shared objects across the cluster: each object is a Redis hash (`so:<name>`: `v` its version, `persistent`,
/// `clients` its clients on every node, `size` its approximate JSON size, and `p:<key>` each property's JSON
/// text), changed only by one Lua script, which gives each change its version and publishes it on the object's
/// channel in the same step, so that every node sees the changes in version order.
extension ClusterNode {
    /// An object as Redis holds it.
    public struct ObjectRecord: Sendable, Hashable {
        /// Its version.
        public var version: Int
        /// Whether it outlives its clients.
        public var persistent: Bool
        /// Each property's JSON text.
        public var properties: [String: String]
    }

    /// What a change did.
    public enum ObjectChange: Sendable, Hashable {
        /// Nothing changed; the object is at `version`.
        case unchanged(version: Int)
        /// The change is `version`; `payload` is `{"version":…,"changed":{…}}` (also sent to the other nodes).
        case changed(version: Int, payload: String)
        /// Refused: the object would be `bytes` long.
        case tooLarge(bytes: Int)
    }

    /// The event kinds of shared objects on the cluster's channels.
    public static let objectUpdateKind = "sharedObject.update"
    /// (see ``objectUpdateKind``)
    public static let objectMessageKind = "sharedObject.message"

    func objectKey(_ name: String) -> String { configuration.keyPrefix + "so:" + name }

    /// The object's record, created empty at version 0 when Redis has none.
    public func openObject(_ name: String, persistent: Bool) async throws(RedisError) -> ObjectRecord {
        let reply = try await redis.command([
            "EVAL", ObjectScripts.open, "1", objectKey(name), persistent ? "1" : "0",
        ])
        let flat = (reply.array ?? []).compactMap(\.string)
        var record = ObjectRecord(version: 0, persistent: persistent, properties: [:])
        for index in stride(from: 0, to: flat.count - 1, by: 2) {
            let (field, value) = (flat[index], flat[index + 1])
            switch field {
            case "v": record.version = Int(value) ?? 0
            case "persistent": record.persistent = value == "1"
            default: if field.hasPrefix("p:") { record.properties[String(field.dropFirst(2))] = value }
            }
        }
        return record
    }

    /// Applies `changes` (each key's new JSON text, `nil` to remove it) to `name` in one step.
    public func setObject(_ name: String, changes: [(key: String, text: String?)], maxBytes: Int)
        async throws(RedisError) -> ObjectChange
    {
        var arguments = ["EVAL", ObjectScripts.set, "1", objectKey(name), String(maxBytes), configuration.nodeID, name,
                         keys.channel(name)]
        for change in changes { arguments += [change.key, change.text ?? ""] }
        let parts = try await redis.command(arguments).array ?? []
        let version = parts.first?.int ?? 0
        let detail = parts.count > 1 ? parts[1].string ?? "" : ""
        if version < 0 { return .tooLarge(bytes: Int(detail) ?? 0) }
        return detail.isEmpty ? .unchanged(version: version) : .changed(version: version, payload: detail)
    }

    /// One more or one fewer client of `name` on this node; a non-persistent object without clients is removed.
    /// Returns at once; applied in call order.
    public func countObjectClients(_ name: String, delta: Int) {
        redis.send(["EVAL", ObjectScripts.count, "1", objectKey(name), String(delta)])
    }
}

/// The scripts of shared objects (see ``ClusterNode``'s extension).
enum ObjectScripts {
    /// KEYS: the object. ARGV: persistent ("1"/"0"). The whole hash, created when missing.
    static let open = """
        if redis.call('EXISTS', KEYS[1]) == 0 then
          redis.call('HSET', KEYS[1], 'v', 0, 'persistent', ARGV[1], 'clients', 0, 'size', 2)
        end
        return redis.call('HGETALL', KEYS[1])
        """

    /// KEYS: the object. ARGV: max bytes, origin node, name, channel, then key / JSON text pairs ("" removes).
    /// Returns {version, payload}: payload "" when nothing changed; {-1, size} when too large.
    static let set = """
        local h = KEYS[1]
        local size = tonumber(redis.call('HGET', h, 'size') or '2')
        local updates = {}
        for i = 5, #ARGV, 2 do
          local k, v = ARGV[i], ARGV[i + 1]
          local old = redis.call('HGET', h, 'p:' .. k)
          if v == '' then
            if old then table.insert(updates, {k, false, old}) end
          elseif old ~= v then
            table.insert(updates, {k, v, old})
          end
        end
        if #updates == 0 then return {tonumber(redis.call('HGET', h, 'v') or '0'), ''} end
        for _, u in ipairs(updates) do
          if u[3] then size = size - (#u[1] + 4 + #u[3]) end
          if u[2] then size = size + (#u[1] + 4 + #u[2]) end
        end
        if size > tonumber(ARGV[1]) then return {-1, tostring(size)} end
        local parts = {}
        for _, u in ipairs(updates) do
          if u[2] then redis.call('HSET', h, 'p:' .. u[1], u[2]) else redis.call('HDEL', h, 'p:' .. u[1]) end
          table.insert(parts, cjson.encode(u[1]) .. ':' .. (u[2] or 'null'))
        end
        redis.call('HSET', h, 'size', size)
        local version = redis.call('HINCRBY', h, 'v', 1)
        local payload = '{"version":' .. version .. ',"changed":{' .. table.concat(parts, ',') .. '}}'
        redis.call('PUBLISH', ARGV[4], cjson.encode({origin = ARGV[2], room = ARGV[3], sequence = 0,
          kind = 'sharedObject.update', user = '', payload = payload}))
        return {version, payload}
        """

    /// KEYS: the object. ARGV: delta. Forgets a non-persistent object whose last client is gone.
    static let count = """
        if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
        local n = redis.call('HINCRBY', KEYS[1], 'clients', tonumber(ARGV[1]))
        if n <= 0 and redis.call('HGET', KEYS[1], 'persistent') ~= '1' then redis.call('DEL', KEYS[1]) end
        return n
        """
}
