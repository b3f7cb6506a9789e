public import RoomClusterCore

/// Shared objects across the cluster: each object is a Redis hash (`so:<name>`: `v` its version, `persistent`,
/// `clients` its clients on every node and `c:<node>` those of each node, `size` its approximate JSON size, and
/// `p:<key>` each property's JSON text), changed only by one Lua script, which gives each change its version and
/// publishes it on the object's channel in the same step, so that every node sees the changes in version order. The
/// hash `so-usage` counts the objects (`objects`) and their sizes (`bytes`) for the quotas, in the same steps that
/// create, grow and forget them. The set `so-clients:<node>` names the objects a node has clients of, so that the
/// sweep of a dead node takes its clients away (``forgetObjectClients(of:)``).
extension ClusterNode {
    /// An object as Redis holds it (``/RoomClusterCore/ClusterObjectRecord``).
    public typealias ObjectRecord = ClusterObjectRecord
    /// What opening an object found (``/RoomClusterCore/ClusterObjectOpening``).
    public typealias ObjectOpening = ClusterObjectOpening
    /// What a change did (``/RoomClusterCore/ClusterObjectChange``).
    public typealias ObjectChange = ClusterObjectChange

    /// The objects of the cluster and the bytes of their data, as the quotas count them.
    public func objectUsage() async throws(RedisError) -> (objects: Int, bytes: Int) {
        let flat = (try await redis.command(["HGETALL", objectUsageKey]).array ?? []).compactMap(\.string)
        var usage = (objects: 0, bytes: 0)
        for index in stride(from: 0, to: flat.count - 1, by: 2) {
            if flat[index] == "objects" { usage.objects = Int(flat[index + 1]) ?? 0 }
            if flat[index] == "bytes" { usage.bytes = Int(flat[index + 1]) ?? 0 }
        }
        return usage
    }

    /// The event kinds of shared objects on the cluster's channels (the scripts below write the first).
    public static let objectUpdateKind = ClusterEvent.sharedObjectUpdate
    /// (see ``objectUpdateKind``)
    public static let objectMessageKind = ClusterEvent.sharedObjectMessage

    func objectKey(_ name: String) -> String { configuration.keyPrefix + "so:" + name }
    var objectUsageKey: String { configuration.keyPrefix + "so-usage" }
    /// The objects `node` has clients of.
    func objectClientsKey(_ node: String) -> String { configuration.keyPrefix + "so-clients:" + node }

    /// The object's record. When Redis has none it is created empty at version 0 and counted, unless a
    /// persistent one is asked and `createsPersistent` is false, or it would pass `maxObjects` or `maxBytes`
    /// (`nil`: no limit): then nothing is created.
    public func openObject(_ name: String, persistent: Bool, createsPersistent: Bool = true, maxObjects: Int? = nil,
                           maxBytes: Int? = nil) async throws(RedisError) -> ObjectOpening {
        let reply = try await redis.command([
            "EVAL", ObjectScripts.open, "2", objectKey(name), objectUsageKey, persistent ? "1" : "0",
            createsPersistent ? "1" : "0", maxObjects.map(String.init) ?? "", maxBytes.map(String.init) ?? "",
        ])
        let flat = (reply.array ?? []).compactMap(\.string)
        if flat.count == 3, flat[0] == "!" {
            switch flat[1] {
            case "persistent": return .persistentNotAllowed
            case "objects": return .tooManyObjects(limit: Int(flat[2]) ?? 0)
            default: return .tooManyBytes(bytes: Int(flat[2]) ?? 0)
            }
        }
        return .opened(Self.record(flat, persistent: persistent))
    }

    /// The record of an object's hash (`HGETALL`'s field / value list); `persistent` when the hash does not say.
    static func record(_ flat: [String], persistent: Bool) -> ObjectRecord {
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

    /// Registers this node's copy of `name` again after Redis lost it (a restart with an empty dataset, or this
    /// node presumed dead and swept), in one script step: when Redis has no such object it is created from
    /// `record` (its version, so that the next change follows the last one the clients saw; its persistence and
    /// properties) and counted in the usage, never refused by the quotas (it was within them); when Redis holds an
    /// older version, `record`'s data replace it and the other nodes are sent what differs as that version's
    /// update; a newer one is kept. Either way this node's clients of it are set to `clients` (not added: running
    /// it twice counts them once) and the object is named in `so-clients:<node>`; a non-persistent object left
    /// without clients is forgotten. Returns what Redis holds afterwards (version 0 and no properties when it was
    /// forgotten): newer than `record` when another node's copy was. (A script runs atomically: no other node's
    /// registration or change runs between its read and its writes,
    /// https://redis.io/docs/latest/develop/interact/programmability/eval-intro/.)
    public func registerObject(_ name: String, record: ObjectRecord, clients: Int) async throws(RedisError)
        -> ObjectRecord
    {
        let node = configuration.nodeID
        var arguments = ["EVAL", ObjectScripts.register, "3", objectKey(name), objectUsageKey, objectClientsKey(node),
                         String(record.version), record.persistent ? "1" : "0", String(clients), node, name,
                         keys.channel(name)]
        for key in record.properties.keys.sorted() { arguments += [key, record.properties[key]!] }
        let flat = (try await redis.command(arguments).array ?? []).compactMap(\.string)
        return Self.record(flat, persistent: record.persistent)
    }

    /// Applies `changes` (each key's new JSON text, `nil` to remove it) to `name` in one step, refused when the
    /// object would be larger than `maxBytes` or all objects larger than `maxTotalBytes` (`nil`: no limit).
    /// `sender` (JSON text) goes into the update's payload as its `sender`.
    public func setObject(_ name: String, changes: [(key: String, text: String?)], maxBytes: Int,
                          maxTotalBytes: Int? = nil, sender: String? = nil) async throws(RedisError) -> ObjectChange
    {
        var arguments = ["EVAL", ObjectScripts.set, "2", objectKey(name), objectUsageKey, String(maxBytes),
                         configuration.nodeID, name, keys.channel(name), maxTotalBytes.map(String.init) ?? "",
                         sender ?? ""]
        for change in changes { arguments += [change.key, change.text ?? ""] }
        let parts = try await redis.command(arguments).array ?? []
        let version = parts.first?.int ?? 0
        let detail = parts.count > 1 ? parts[1].string ?? "" : ""
        if version == -3 { return .missing }
        if version == -1 { return .tooLarge(bytes: Int(detail) ?? 0) }
        if version == -2 { return .tooManyBytes(bytes: Int(detail) ?? 0) }
        return detail.isEmpty ? .unchanged(version: version) : .changed(version: version, payload: detail)
    }

    /// One more or one fewer client of `name` on this node; a non-persistent object without clients is removed
    /// (and no longer counted). Returns at once; applied in call order.
    public func countObjectClients(_ name: String, delta: Int) {
        let node = configuration.nodeID
        redis.send(["EVAL", ObjectScripts.count, "3", objectKey(name), objectUsageKey, objectClientsKey(node),
                    String(delta), node, name])
    }

    /// Takes away every client the dead `node` had of any object, and forgets (and stops counting) the
    /// non-persistent objects left without clients: the sweep of a dead node does it, so that its objects go
    /// with their last live client. Each object in one script step (a script runs atomically: no other command
    /// runs meanwhile, https://redis.io/docs/latest/develop/interact/programmability/eval-intro/).
    func forgetObjectClients(of node: String) async throws(RedisError) {
        let index = objectClientsKey(node)
        let names = (try await liveness.command("SMEMBERS", index).array ?? []).compactMap(\.string)
        for name in names {
            _ = try await liveness.command(["EVAL", ObjectScripts.forgetNode, "3", objectKey(name), objectUsageKey,
                                            index, node, name])
        }
        _ = try await liveness.command("DEL", index)
    }
}

/// The scripts of shared objects (see ``ClusterNode``'s extension). KEYS[2] is always the usage hash, whose
/// `objects` and `bytes` move in the same step as the objects they count.
enum ObjectScripts {
    /// KEYS: the object, the usage. ARGV: persistent ("1"/"0"), may create persistent ("1"/"0"), max objects and
    /// max bytes ("" for none). The whole hash, created when missing; {"!", what, value} when creating is refused.
    static let open = """
        if redis.call('EXISTS', KEYS[1]) == 0 then
          if ARGV[1] == '1' and ARGV[2] ~= '1' then return {'!', 'persistent', '0'} end
          local objects = tonumber(redis.call('HGET', KEYS[2], 'objects') or '0')
          if ARGV[3] ~= '' and objects + 1 > tonumber(ARGV[3]) then return {'!', 'objects', ARGV[3]} end
          local bytes = tonumber(redis.call('HGET', KEYS[2], 'bytes') or '0') + 2
          if ARGV[4] ~= '' and bytes > tonumber(ARGV[4]) then return {'!', 'bytes', tostring(bytes)} end
          redis.call('HSET', KEYS[1], 'v', 0, 'persistent', ARGV[1], 'clients', 0, 'size', 2)
          redis.call('HINCRBY', KEYS[2], 'objects', 1)
          redis.call('HINCRBY', KEYS[2], 'bytes', 2)
        end
        return redis.call('HGETALL', KEYS[1])
        """

    /// KEYS: the object, the usage. ARGV: max bytes, origin node, name, channel, max total bytes ("" for none),
    /// sender JSON ("" for none), then key / JSON text pairs ("" removes). Returns {version, payload}: payload ""
    /// when nothing changed; {-1, size} when the object would be too large; {-2, total} past the total; {-3, ""}
    /// when the object does not exist (Redis lost it: it is registered again, never made anew at version 1).
    static let set = """
        local h = KEYS[1]
        if redis.call('EXISTS', h) == 0 then return {-3, ''} end
        local before = tonumber(redis.call('HGET', h, 'size') or '2')
        local size = before
        local updates = {}
        for i = 7, #ARGV, 2 do
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
        local total = tonumber(redis.call('HGET', KEYS[2], 'bytes') or '0') + size - before
        if ARGV[5] ~= '' and size > before and total > tonumber(ARGV[5]) then return {-2, tostring(total)} end
        local parts = {}
        for _, u in ipairs(updates) do
          if u[2] then redis.call('HSET', h, 'p:' .. u[1], u[2]) else redis.call('HDEL', h, 'p:' .. u[1]) end
          table.insert(parts, cjson.encode(u[1]) .. ':' .. (u[2] or 'null'))
        end
        redis.call('HSET', h, 'size', size)
        redis.call('HINCRBY', KEYS[2], 'bytes', size - before)
        local version = redis.call('HINCRBY', h, 'v', 1)
        local payload = '{"version":' .. version .. ',"changed":{' .. table.concat(parts, ',') .. '}'
        if ARGV[6] ~= '' then payload = payload .. ',"sender":' .. ARGV[6] end
        payload = payload .. '}'
        redis.call('PUBLISH', ARGV[4], cjson.encode({origin = ARGV[2], room = ARGV[3], sequence = 0,
          kind = 'sharedObject.update', user = '', payload = payload}))
        return {version, payload}
        """

    /// Forgets (and stops counting) the non-persistent object KEYS[1], whose clients are gone; used by the scripts
    /// below.
    private static let forget = """
        local function forget()
          local size = tonumber(redis.call('HGET', KEYS[1], 'size') or '2')
          redis.call('DEL', KEYS[1])
          if redis.call('HINCRBY', KEYS[2], 'objects', -1) < 0 then redis.call('HSET', KEYS[2], 'objects', 0) end
          if redis.call('HINCRBY', KEYS[2], 'bytes', -size) < 0 then redis.call('HSET', KEYS[2], 'bytes', 0) end
        end
        """

    /// KEYS: the object, the usage, the node's objects (`so-clients:<node>`). ARGV: delta, node, name. Counts the
    /// node's clients (`c:<node>`, never below 0: a node swept meanwhile has none left to take away) and all of them
    /// (`clients`); forgets (and stops counting) a non-persistent object whose last client is gone.
    static let count = forget + "\n" + """
        if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
        local field = 'c:' .. ARGV[2]
        local delta = tonumber(ARGV[1])
        local mine = redis.call('HINCRBY', KEYS[1], field, delta)
        if mine < 0 then delta = delta - mine; mine = 0 end
        if mine == 0 then
          redis.call('HDEL', KEYS[1], field)
          redis.call('SREM', KEYS[3], ARGV[3])
        else
          redis.call('SADD', KEYS[3], ARGV[3])
        end
        local n = redis.call('HINCRBY', KEYS[1], 'clients', delta)
        if n <= 0 and redis.call('HGET', KEYS[1], 'persistent') ~= '1' then forget() end
        return n
        """

    /// KEYS: the object, the usage, the dead node's objects. ARGV: node, name. Takes the node's clients away from
    /// the object and forgets it when it is non-persistent and has no client left. An object the node has no
    /// clients of (one of that name made anew since) is left alone.
    static let forgetNode = forget + "\n" + """
        redis.call('SREM', KEYS[3], ARGV[2])
        local field = 'c:' .. ARGV[1]
        local mine = tonumber(redis.call('HGET', KEYS[1], field) or '0')
        if mine <= 0 then return 0 end
        redis.call('HDEL', KEYS[1], field)
        local n = redis.call('HINCRBY', KEYS[1], 'clients', -mine)
        if n <= 0 and redis.call('HGET', KEYS[1], 'persistent') ~= '1' then forget() end
        return mine
        """

    /// KEYS: the object, the usage, this node's objects. ARGV: version, persistent ("1"/"0"), this node's clients,
    /// node, name, channel, then key / JSON text pairs (this node's copy). See
    /// ``ClusterNode/registerObject(_:record:clients:)``. Returns the object's hash afterwards (empty when forgotten).
    static let register = forget + "\n" + """
        local h = KEYS[1]
        local version = tonumber(ARGV[1])
        local size = 2
        for i = 7, #ARGV, 2 do size = size + #ARGV[i] + 4 + #ARGV[i + 1] end
        if redis.call('EXISTS', h) == 0 then
          redis.call('HSET', h, 'v', version, 'persistent', ARGV[2], 'clients', 0, 'size', size)
          for i = 7, #ARGV, 2 do redis.call('HSET', h, 'p:' .. ARGV[i], ARGV[i + 1]) end
          redis.call('HINCRBY', KEYS[2], 'objects', 1)
          redis.call('HINCRBY', KEYS[2], 'bytes', size)
        elseif tonumber(redis.call('HGET', h, 'v') or '0') < version then
          local parts, mine = {}, {}
          for i = 7, #ARGV, 2 do
            local k, v = ARGV[i], ARGV[i + 1]
            mine[k] = true
            if redis.call('HGET', h, 'p:' .. k) ~= v then
              redis.call('HSET', h, 'p:' .. k, v)
              table.insert(parts, cjson.encode(k) .. ':' .. v)
            end
          end
          local fields = redis.call('HKEYS', h)
          for _, f in ipairs(fields) do
            if string.sub(f, 1, 2) == 'p:' and not mine[string.sub(f, 3)] then
              redis.call('HDEL', h, f)
              table.insert(parts, cjson.encode(string.sub(f, 3)) .. ':null')
            end
          end
          local before = tonumber(redis.call('HGET', h, 'size') or '2')
          redis.call('HSET', h, 'v', version, 'persistent', ARGV[2], 'size', size)
          redis.call('HINCRBY', KEYS[2], 'bytes', size - before)
          local payload = '{"version":' .. version .. ',"changed":{' .. table.concat(parts, ',') .. '}}'
          redis.call('PUBLISH', ARGV[6], cjson.encode({origin = ARGV[4], room = ARGV[5], sequence = 0,
            kind = 'sharedObject.update', user = '', payload = payload}))
        end
        local field = 'c:' .. ARGV[4]
        local count = tonumber(ARGV[3])
        local old = tonumber(redis.call('HGET', h, field) or '0')
        if count > 0 then
          redis.call('HSET', h, field, count)
          redis.call('SADD', KEYS[3], ARGV[5])
        else
          redis.call('HDEL', h, field)
          redis.call('SREM', KEYS[3], ARGV[5])
        end
        local n = redis.call('HINCRBY', h, 'clients', count - old)
        if n <= 0 and redis.call('HGET', h, 'persistent') ~= '1' then forget() end
        return redis.call('HGETALL', h)
        """
}
