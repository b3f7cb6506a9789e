import Logging
import SignalingSupport
import Synchronization

extension JSONRPCClient {
    /// Starts the heartbeat on connection `generation` (after every connect and reconnect: the Java client forgot
    /// to, docs/wire-protocol.md#json-rpc-client-bugs). The first ping carries `{"interval": ms}` so the server arms
    /// its watchdog.
    func startHeartbeat(generation: Int) {
        guard let interval = configuration.heartbeat.interval else { return }
        scheduleHeartbeat(generation: generation, after: interval, first: true)
    }

    private func scheduleHeartbeat(generation: Int, after delay: Duration, first: Bool) {
        let timer = clock.schedule(after: delay) { [weak self] in self?.ping(generation: generation, first: first) }
        let stale = state.withLock { s -> Bool in
            guard s.machine.connection(ofGeneration: generation) != nil else { return true }
            s.heartbeatTimer = timer
            return false
        }
        if stale { timer.cancel() }
    }

    /// Sends one heartbeat `ping`; any reply, even an error, proves liveness. No reply within one interval is a
    /// lost connection, unless the server sent anything else meanwhile: then it is slow, not gone, and the next ping
    /// goes out at once, with a deadline of its own. Pings never retry (docs/architecture.md#heartbeat).
    private func ping(generation: Int, first: Bool) {
        guard let interval = configuration.heartbeat.interval,
              let connection = state.withLock({ $0.machine.connection(ofGeneration: generation) })
        else { return }
        let milliseconds = Int(interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000)
        var members: [String: JSONValue] = first ? ["interval": .int(milliseconds)] : [:]
        // docs/wire-protocol.md#delivery: each ping acknowledges what was read, so a quiet session keeps nothing.
        if let received = state.withLock({ s in s.delivery.serverAcknowledges ? s.delivery.acknowledging() : nil }) {
            members["received"] = .int(Int(received))
        }
        let params: JSONValue? = members.isEmpty ? nil : .object(members)
        let sentAt = clock.now
        let readBefore = messagesRead.load(ordering: .relaxed)
        // Registered and queued here, in the heartbeat timer's action: its deadline runs from the tick.
        let pong = startControlCall(KurentoConventions.ping, params: params, on: connection, timeout: interval)
        Task { [weak self] in
            let outcome = await pong.wait()
            guard let self else { return }
            switch outcome {
            case .success, .failure(.remote):
                let rtt = self.clock.now - sentAt
                self.record(rtt: rtt)
                self.scheduleHeartbeat(generation: generation, after: max(.zero, interval - rtt), first: false)
            case .failure(.timeout) where self.messagesRead.load(ordering: .relaxed) != readBefore:
                // Messages arrived while the pong did not: a server busy with a storm answers late. Dropping the
                // link would only add a resume to its load (at 15,000 clients, thousands did so at once).
                self.logger.info("ping unanswered within \(interval), but the server is sending: waiting on")
                self.ping(generation: generation, first: first)
            case .failure(.timeout):
                self.heartbeatLost(generation: generation, connection: connection, interval: interval)
            case .failure:
                break  // the connection ended or the client closed: its own path handles that
            }
        }
    }

    private func record(rtt: Duration) {
        state.withLock { s in
            let smoothed = s.rtt.map { $0.smoothed * 7 / 8 + rtt / 8 } ?? rtt
            s.rtt = (rtt, smoothed)
        }
    }

    /// No pong within the interval: treat it as a drop (reconnect when allowed) and close the silent socket.
    private func heartbeatLost(generation: Int, connection: any MessageConnection, interval: Duration) {
        let end = ConnectionEnd(code: 1006, reason: "heartbeat lost: no reply to ping within \(interval)")
        logger.warning("\(end.reason)")
        connectionEnded(generation: generation, end: end)
        Task { await connection.close(code: 1001, reason: "heartbeat lost") }
    }
}
