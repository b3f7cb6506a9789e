public import RoomClusterCore

/// Media shared by the nodes of a cluster (docs/kurento.md#cluster): one media pipeline per room for every node, its
/// KMS and id in Redis, and the KMS endpoint of each publisher, so that a subscriber on one node is fed from a
/// publisher on another through that one pipeline. Scopes are opaque strings to the cluster (the room server names
/// them, e.g. `room:demo`).
///
/// | key | type | holds |
/// |---|---|---|
/// | `media:<scope>` | hash | `kms` (its URL) and `pipeline` (its id) |
/// | `media:<scope>:nodes` | set | the nodes that use the pipeline (hold endpoints in it) |
/// | `media:<scope>:publishers` | hash | user → the KMS id of its publisher endpoint |
///
/// The last node to stop using a pipeline releases it: ``leaveMedia(_:)`` drops this node, and the nodes whose
/// heartbeat key is gone (dead), and hands back the pipeline when no live node is left.
extension ClusterNode {
    /// Where a scope's media pipeline is (``/RoomClusterCore/ClusterPipelineRecord``).
    public typealias MediaPipelineRecord = ClusterPipelineRecord

    func mediaKey(_ scope: String) -> String { configuration.keyPrefix + "media:" + scope }
    func mediaNodesKey(_ scope: String) -> String { mediaKey(scope) + ":nodes" }
    func mediaPublishersKey(_ scope: String) -> String { mediaKey(scope) + ":publishers" }

    /// The pipeline another node recorded for `scope`, if any; this node is then counted as one of its users.
    public func joinMedia(_ scope: String) async throws(RedisError) -> MediaPipelineRecord? {
        let reply = try await redis.command([
            "EVAL", MediaScripts.join, "2", mediaKey(scope), mediaNodesKey(scope), configuration.nodeID,
        ])
        return Self.record(reply)
    }

    /// Records `pipeline` for `scope` unless another node recorded one first; returns the one recorded (ours, or the
    /// winner's: then release ours and use it). This node is counted as a user either way.
    public func claimMedia(_ scope: String, pipeline: MediaPipelineRecord) async throws(RedisError) -> MediaPipelineRecord {
        let reply = try await redis.command([
            "EVAL", MediaScripts.claim, "2", mediaKey(scope), mediaNodesKey(scope), configuration.nodeID,
            pipeline.kms, pipeline.id,
        ])
        return Self.record(reply) ?? pipeline
    }

    /// This node no longer uses `scope`'s pipeline. Returns the pipeline when no live node uses it any more: the
    /// caller releases it (its records are gone from Redis already).
    public func leaveMedia(_ scope: String) async throws(RedisError) -> MediaPipelineRecord? {
        let reply = try await redis.command([
            "EVAL", MediaScripts.leave, "3", mediaKey(scope), mediaNodesKey(scope), mediaPublishersKey(scope),
            configuration.nodeID, configuration.keyPrefix + "node:",
        ])
        return Self.record(reply)
    }

    /// Forgets `scope`'s pipeline record if it is still `id` (KMS no longer has that pipeline: it restarted).
    public func forgetMedia(_ scope: String, pipeline id: String) async throws(RedisError) {
        _ = try await redis.command([
            "EVAL", MediaScripts.forget, "3", mediaKey(scope), mediaNodesKey(scope), mediaPublishersKey(scope), id,
        ])
    }

    /// Records the KMS id of `user`'s publisher endpoint in `scope`.
    public func setPublisherEndpoint(_ id: String, user: String, scope: String) async throws(RedisError) {
        _ = try await redis.command(["HSET", mediaPublishersKey(scope), user, id])
    }

    /// The KMS id of `user`'s publisher endpoint in `scope`, if a node recorded one.
    public func publisherEndpoint(user: String, scope: String) async throws(RedisError) -> String? {
        try await redis.command(["HGET", mediaPublishersKey(scope), user]).string
    }

    /// Removes `user`'s publisher endpoint record if it is still `id`.
    public func removePublisherEndpoint(_ id: String, user: String, scope: String) async throws(RedisError) {
        _ = try await redis.command(["EVAL", MediaScripts.removePublisher, "1", mediaPublishersKey(scope), user, id])
    }

    private static func record(_ reply: RedisReply) -> MediaPipelineRecord? {
        guard let parts = reply.array, parts.count == 2, let kms = parts[0].string, let id = parts[1].string else {
            return nil
        }
        return MediaPipelineRecord(kms: kms, id: id)
    }
}

/// The Lua scripts of ``ClusterNode``'s media records: each one step in Redis, so two nodes never both keep a
/// pipeline for one scope, and the last live user is the one that releases it.
enum MediaScripts {
    /// KEYS: media hash, nodes set. ARGV: node id. The recorded {kms, pipeline} (the node added to its users), or nil.
    static let join = """
        local record = redis.call('HMGET', KEYS[1], 'kms', 'pipeline')
        if record[1] and record[2] then
          redis.call('SADD', KEYS[2], ARGV[1])
          return record
        end
        return nil
        """

    /// KEYS: media hash, nodes set. ARGV: node id, kms, pipeline. The {kms, pipeline} recorded after it.
    static let claim = """
        if redis.call('HSETNX', KEYS[1], 'pipeline', ARGV[3]) == 1 then
          redis.call('HSET', KEYS[1], 'kms', ARGV[2])
        end
        redis.call('SADD', KEYS[2], ARGV[1])
        return redis.call('HMGET', KEYS[1], 'kms', 'pipeline')
        """

    /// KEYS: media hash, nodes set, publishers hash. ARGV: node id, heartbeat key prefix. Removes the node and every
    /// user node whose heartbeat key expired; when none is left, deletes the records and returns {kms, pipeline}.
    static let leave = """
        redis.call('SREM', KEYS[2], ARGV[1])
        for _, node in ipairs(redis.call('SMEMBERS', KEYS[2])) do
          if redis.call('EXISTS', ARGV[2] .. node) == 0 then redis.call('SREM', KEYS[2], node) end
        end
        if redis.call('SCARD', KEYS[2]) > 0 then return nil end
        local record = redis.call('HMGET', KEYS[1], 'kms', 'pipeline')
        redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
        if record[1] and record[2] then return record end
        return nil
        """

    /// KEYS: media hash, nodes set, publishers hash. ARGV: pipeline. Deletes the records if they are that pipeline's.
    static let forget = """
        if redis.call('HGET', KEYS[1], 'pipeline') == ARGV[1] then
          redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
        end
        return nil
        """

    /// KEYS: publishers hash. ARGV: user, endpoint id. Removes the user's entry if it is that endpoint.
    static let removePublisher = """
        if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then redis.call('HDEL', KEYS[1], ARGV[1]) end
        return nil
        """
}
