import KurentoClient
import Logging
import RoomProtocol
import SignalingSupport

/// One pipeline per room or tree (docs/kurento.md#backend): created when the first endpoint needs it, on the KMS
/// with the fewest live pipelines; released when the scope is released, or after it by the release of its last
/// endpoint when that was still under way (everyone leaving a room at once).
extension KurentoMediaBackend {
    /// The pipeline of `scope`, created if it has none; the caller is counted as a user of the scope already.
    func pipeline(for scope: MediaScope, before deadline: ClockInstant) async throws(RoomError) -> MediaPipeline {
        enum Next { case ready(MediaPipeline), wait(Task<MediaPipeline, any Error>) }
        let next = state.withLock { s -> Next in
            switch s.scopes[scope]?.pipeline ?? .none {
            case .ready(let pipeline): return .ready(pipeline)
            case .creating(_, let task): return .wait(task)
            case .none:
                let token = s.nextCreation
                s.nextCreation += 1
                let task = Task { try await self.createPipeline(for: scope, token: token, before: deadline) }
                s.scopes[scope, default: ScopeRecord()].pipeline = .creating(token: token, task)
                return .wait(task)
            }
        }
        switch next {
        case .ready(let pipeline): return pipeline
        case .wait(let task):
            do {
                return try await task.value
            } catch {
                throw roomError(error, while: "creating the media pipeline of \(scope)")
            }
        }
    }

    /// Creates the pipeline of `scope` on the least loaded KMS and subscribes to its `Error` events (not waited for:
    /// it costs the endpoint that asked no round trip).
    private func createPipeline(for scope: MediaScope, token: UInt64, before deadline: ClockInstant)
        async throws -> MediaPipeline
    {
        func isMine(_ s: State) -> Bool {
            if case .creating(token, _)? = s.scopes[scope]?.pipeline { true } else { false }
        }
        do {
            let (kms, pipeline) = try await findOrCreatePipeline(for: scope, before: deadline)
            let kept = state.withLock { s -> Bool in
                guard isMine(s) else { return false }
                s.scopes[scope]?.pipeline = .ready(pipeline)
                s.scopes[scope]?.kms = kms
                return true
            }
            guard kept else {
                // Every user left and the scope was released while KMS answered.
                if let cluster = cluster(for: scope) {
                    await leaveShared(scope, in: cluster)
                } else {
                    try? await pipeline.release()
                }
                throw RoomError(.mediaEndpoint, message: "the \(scope) ended while its media pipeline was created")
            }
            logger.info("media pipeline created", metadata: [
                "scope": "\(scope)", "kms": "\(clients[kms].name)", "pipeline": "\(pipeline.id)"])
            Task { await self.watchPipeline(pipeline, of: scope) }
            return pipeline
        } catch {
            state.withLock { s in
                if isMine(s) { s.scopes[scope]?.pipeline = .none }
            }
            throw error
        }
    }

    /// The pipeline for `scope`: with a cluster, the one another node recorded, if any; otherwise a new one on the
    /// least loaded KMS (recorded for the other nodes, unless one of them was first).
    private func findOrCreatePipeline(for scope: MediaScope, before deadline: ClockInstant)
        async throws -> (Int, MediaPipeline)
    {
        let cluster = cluster(for: scope)
        if let cluster {
            state.withLock { _ = $0.shared.insert(scope) }
            if let shared = try await sharedPipeline(of: scope, in: cluster) { return shared }
        }
        let kms = try await chooseKMS(before: deadline)
        let pipeline = try await clients[kms].createMediaPipeline(timeout: remaining(until: deadline))
        guard let cluster else { return (kms, pipeline) }
        return try await claimPipeline(pipeline, kms: kms, for: scope, in: cluster)
    }

    /// A pipeline's `Error` event fails every endpoint of its scope.
    private func watchPipeline(_ pipeline: MediaPipeline, of scope: MediaScope) async {
        _ = try? await pipeline.subscribe(ErrorEvent.self) { [weak self] error in
            guard let self, self.isCurrent(pipeline, of: scope) else { return }
            self.failScope(scope, reason: Self.describe(error))
        }
    }

    /// Whether `pipeline` still serves `scope`.
    func isCurrent(_ pipeline: MediaPipeline, of scope: MediaScope) -> Bool {
        state.withLock { s in
            if case .ready(let current)? = s.scopes[scope]?.pipeline { current.id == pipeline.id } else { false }
        }
    }

    /// The KMS for a new pipeline: among those connected, the one with the fewest live pipelines (ties: the first
    /// in ``Configuration/urls``); when none is connected, the first that connects before `deadline`.
    private func chooseKMS(before deadline: ClockInstant) async throws(RoomError) -> Int {
        let connected = clients.indices.filter { clients[$0].isConnected }
        if let best = connected.min(by: { clients[$0].livePipelineCount < clients[$1].livePipelineCount }) {
            return best
        }
        var reasons: [String] = []
        for index in clients.indices {
            guard remaining(until: deadline) > .zero else { break }
            do {
                try await clients[index].connect()
                return index
            } catch {
                reasons.append("\(clients[index].name): \(error)")
            }
        }
        throw RoomError(.mediaEndpoint, message: "no Kurento Media Server reachable (\(reasons.joined(separator: "; ")))")
    }

    public func release(scope: MediaScope) async {
        let pipeline = state.withLock { s -> MediaPipeline? in
            guard let record = s.scopes[scope] else { return nil }
            guard record.users == 0 else {
                // Endpoints of it are still being released (leaves that overlapped): the last one takes the pipeline
                // (State.endUse(of:)).
                s.scopes[scope]?.ended = true
                return nil
            }
            s.scopes[scope] = nil
            switch record.pipeline {
            case .ready(let pipeline): return pipeline
            case .creating, .none: return nil  // a creation in flight finds the scope gone and lets go of its pipeline
            }
        }
        if let pipeline {
            await release(pipeline, of: scope)
        } else if let cluster = cluster(for: scope), state.withLock({ $0.shared.remove(scope) != nil }) {
            // This node used the room's shared pipeline but holds no record of it any more (a failure here dropped
            // it): it still leaves, so that the last live node releases it.
            await leaveShared(scope, in: cluster)
        }
    }

    /// Lets go of the pipeline of a scope that ended: releases it, or with a cluster leaves the room's shared
    /// pipeline, which the last live node releases.
    func release(_ pipeline: MediaPipeline, of scope: MediaScope) async {
        if let cluster = cluster(for: scope) {
            if state.withLock({ $0.shared.remove(scope) != nil }) { await leaveShared(scope, in: cluster) }
            return
        }
        do {
            try await pipeline.release()
            logger.info("media pipeline released", metadata: ["scope": "\(scope)", "pipeline": "\(pipeline.id)"])
        } catch {
            logger.warning("media pipeline release failed", metadata: ["scope": "\(scope)", "error": "\(error)"])
        }
    }

    /// Forgets `scope` and reports that all its endpoints failed; `gone` is the pipeline KMS no longer has (the
    /// cluster's record of it is dropped too).
    func failScope(_ scope: MediaScope, reason: String, gone: MediaPipeline? = nil) {
        state.withLock { s in
            s.scopes[scope] = nil
            for key in s.endpoints.keys where key.scope == scope { s.endpoints[key] = nil }
        }
        if let gone { forgetShared(scope, pipeline: gone.id) }
        sinks.report(.scopeFailed(scope, reason: reason))
    }

    /// Time left until `deadline`, at least zero.
    func remaining(until deadline: ClockInstant) -> Duration {
        max(.zero, deadline - clock.now)
    }
}
