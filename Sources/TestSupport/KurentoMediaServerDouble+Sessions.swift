import Foundation
import SignalingSupport

extension KurentoMediaServerDouble {
    // MARK: Methods

    /// KMS: SM7 `ping`: `{"value":"pong"}`, plus `sessionId` only when the request carried one or had one injected;
    /// `interval` is never read, and a ping feeds no keep-alive.
    func ping(_ params: Any?) -> MethodResult {
        var members: [String: Any] = ["value": "pong"]
        if let session = (params as? [String: Any])?["sessionId"] as? String { members["sessionId"] = session }
        return .members(members)
    }

    /// KMS: SM7 `connect`: without a sessionId, a fresh one (unknown to the media set until an object is created or
    /// touched in it); with one, `keepAliveSession` (40007 for a session the media set does not know). Both answer the
    /// `serverId` of this process lifetime.
    func connect(_ params: Any?) throws(RequestFailure) -> MethodResult {
        let serverID = state.withLock { $0.world.serverID }
        guard let requested = try Self.optionalString(params as? [String: Any] ?? [:], "sessionId") else {
            return .members(["sessionId": World.uuid(), "serverId": serverID])
        }
        try keepAliveSession(requested)
        return .members(["sessionId": requested, "serverId": serverID])
    }

    /// KMS: SM7 `keepAlive`: `sessionId` required (it may be injected); 40007 for an unknown session.
    func keepAlive(_ params: Any?) throws(RequestFailure) -> MethodResult {
        let session = try Self.requireString(try Self.requireParams(params), "sessionId")
        try keepAliveSession(session)
        return .members(["sessionId": session])
    }

    /// KMS: SM7 `closeSession`: `release: true` releases every object of the session (MSET `releaseSession`),
    /// otherwise the session's references are dropped (`unrefSession`); the result is `null`. (DOC says it does
    /// nothing; the code disagrees, and the double follows the code.)
    func closeSession(_ params: Any?) throws(RequestFailure) -> MethodResult {
        let object = try Self.requireParams(params)
        let session = try Self.requireString(object, "sessionId")
        var releasing = false
        if let value = object["release"] {
            guard Self.kind(of: value) == .bool, let flag = value as? Bool else {
                throw .serverError("'release' parameter should be a boolean")
            }
            releasing = flag
        }
        let closing = state.withLock { s -> [String] in
            guard let objects = s.world.sessions[session]?.objects else { return [] }
            if releasing {
                var closed: [String] = []
                for id in s.world.order where objects.contains(id) { closed += release(id, in: &s) }
                s.world.sessions[session] = nil
                s.world.subscriptions.removeAll(of: session)
                return closed
            }
            return unrefSession(session, in: &s)
        }
        closePeers(closing)
        return .null
    }

    // MARK: The media set's sessions

    /// KMS: MSET `keepAliveSession(sessionId, false)`: marks a known session alive; 40007 `Invalid session` otherwise.
    func keepAliveSession(_ session: String) throws(RequestFailure) {
        let known = state.withLock { s -> Bool in
            guard s.world.sessions[session] != nil else { return false }
            s.world.sessions[session]?.alive = true
            return true
        }
        guard known else { throw .kurento(40007, "INVALID_SESSION", "Invalid session") }
    }

    /// KMS: MSET `ref(sessionId, obj)` → `keepAliveSession(sessionId, true)`: the session exists from now on (created
    /// if needed), is alive, and references the object.
    func ref(_ object: String, into session: String, in s: inout State) {
        s.world.sessions[session, default: MediaSession()].objects.insert(object)
        s.world.sessions[session]?.alive = true
    }

    /// KMS: MSET `unrefSession`: the session goes, and every object no other session references is released (with
    /// its children). The session's own subscriptions go with it (its event handlers are kept per session in MSET;
    /// that they are erased here is an inference). Returns the endpoints whose PeerManager connections are to be
    /// closed.
    func unrefSession(_ session: String, in s: inout State) -> [String] {
        s.world.subscriptions.removeAll(of: session)
        guard let objects = s.world.sessions.removeValue(forKey: session)?.objects else { return [] }
        var closed: [String] = []
        for id in s.world.order where objects.contains(id) && s.world.objects[id] != nil {
            if !s.world.sessions.values.contains(where: { $0.objects.contains(id) }) { closed += release(id, in: &s) }
        }
        return closed
    }

    /// KMS: WST7 `storeConnection`: ties `socket` to `session`, erasing the socket's old session ("Erasing old
    /// sessionId … associated with current connection") and the session's old socket ("Erasing old connection
    /// associated with …"); a changed pairing keeps the session alive (`keepAliveSession`, INVALID_SESSION ignored).
    func tie(_ socket: Socket, to session: String, in s: inout State) {
        guard s.sockets[socket.id] != nil else { return }
        if s.sessionOfSocket[socket.id] == session, s.socketOfSession[session] == socket.id { return }
        if let old = s.sessionOfSocket[socket.id], s.socketOfSession[old] == socket.id { s.socketOfSession[old] = nil }
        if let other = s.socketOfSession[session], other != socket.id { s.sessionOfSocket[other] = nil }
        s.sessionOfSocket[socket.id] = session
        s.socketOfSession[session] = socket.id
        s.world.sessions[session]?.alive = true
    }

    // MARK: Garbage collection

    /// Sleeps between collections; ``stop()`` wakes it for good.
    final class CollectorClock: @unchecked Sendable {
        // @unchecked: `stopped` is only touched while `condition` is locked.
        private let condition = NSCondition()
        private var stopped = false

        /// Waits `period`; `false` once stopped.
        func sleep(_ period: Duration) -> Bool {
            let deadline = Date(timeIntervalSinceNow: KurentoMediaServerDouble.seconds(period))
            condition.lock()
            defer { condition.unlock() }
            while !stopped, condition.wait(until: deadline) {}
            return !stopped
        }

        func stop() {
            condition.lock()
            stopped = true
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The collector thread: one collection every ``Configuration/garbageCollectorPeriod``.
    func startCollector() {
        let clock = collector
        let period = configuration.garbageCollectorPeriod
        Thread.detachNewThread { [weak self] in
            while clock.sleep(period) {
                guard let self else { return }
                self.runCollection()
            }
        }
    }

    /// Runs one collection now, as the collector's timer does (on a thread of the double's own, since it waits
    /// for a running method).
    public func collectGarbage() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread { [self] in
                runCollection()
                done.resume()
            }
        }
    }

    /// One collection, atomic with respect to requests.
    func runCollection() {
        let closing = operationLock.withLock { _ in
            state.withLock { s -> [String] in
                guard !s.stopped else { return [] }
                s.collections += 1
                return collect(in: &s)
            }
        }
        closePeers(closing)
    }

    /// KMS: MSET `doGarbageCollection`: a session marked in use has its mark cleared; a session found clear is
    /// `unrefSession`'d ("Remove inactive session"). KMS: WST7 `keepAliveSessions` marks every session tied to an
    /// open socket every period / 4; here it runs right after each collection, so such a session is never collected
    /// and one whose socket went is collected between one and two periods later.
    private func collect(in s: inout State) -> [String] {
        var closing: [String] = []
        let tied = Set(s.socketOfSession.keys)
        for session in s.world.sessions.keys.sorted() where !tied.contains(session) {
            guard let record = s.world.sessions[session] else { continue }
            if record.alive {
                s.world.sessions[session]?.alive = false
            } else {
                closing += unrefSession(session, in: &s)
            }
        }
        for session in tied { s.world.sessions[session]?.alive = true }
        return closing
    }
}
