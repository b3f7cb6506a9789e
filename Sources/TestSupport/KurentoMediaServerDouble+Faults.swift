import Foundation
import SignalingSupport

/// The faults a test drives (docs/testing.md#fault-injection): a restarted or unreachable server, slow replies,
/// refused creations, error events, bad data and cut connections.
extension KurentoMediaServerDouble {
    /// A KMS restart: every connection dropped (TCP cut, no close frame), every object, session, subscription and
    /// cached reply gone, and a new `serverId`; the double keeps listening on the same port. Requests read before the
    /// restart and not yet run are dropped with their process. Armed faults and the counters stay.
    public func restart() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            // On a thread of its own: it waits for a method that is running (the operation lock), which may be
            // waiting for PeerManager on the cooperative pool.
            Thread.detachNewThread { [self] in
                operationLock.withLock { _ in
                    let sockets = state.withLock { s -> [Socket] in
                        s.world = World(epoch: s.world.epoch + 1, candidatePort: configuration.firstCandidatePort)
                        return Self.detachSockets(&s)
                    }
                    for socket in sockets { socket.cut() }
                }
                done.resume()
            }
        }
    }

    /// Stops accepting connections (a new one is refused) while the open ones go on; ``resume()`` listens again.
    public func pause() {
        let listener = state.withLock { s -> Listener? in
            defer { s.listener = nil }
            return s.listener
        }
        listener?.shutDown(wait: true)
    }

    /// Listens again on the same port after ``pause()``.
    /// - Throws: when the port cannot be bound again.
    public func resume() throws {
        try state.withLock { s in
            guard !s.stopped, s.listener == nil else { return }
            let listener = try Listener(port: port)
            s.listener = listener
            accept(on: listener)
        }
    }

    /// Makes requests slow: a request whose method is in `methods`, or an `invoke` whose operation is in
    /// `operations`, waits `duration` and then runs (so a late `create` really creates its object late). The
    /// connection's later requests wait behind it. Stays until ``removeDelays()``.
    public func delay(methods: Set<String> = [], operations: Set<String> = [], by duration: Duration) {
        state.withLock { $0.faults.delays.append(Delay(methods: methods, operations: operations, hold: .duration(duration))) }
    }

    /// ``delay(methods:operations:by:)`` until `gate` opens instead of for a time: the deterministic form for tests
    /// (``BlockingGate/isBlocking`` tells that a request is held). The gate's own timeout bounds the wait.
    public func hold(methods: Set<String> = [], operations: Set<String> = [], until gate: BlockingGate) {
        state.withLock { $0.faults.delays.append(Delay(methods: methods, operations: operations, hold: .gate(gate))) }
    }

    /// Removes every delay.
    public func removeDelays() { state.withLock { $0.faults.delays = [] } }

    /// How a request is held, if a delay applies to it.
    func delay(method: String, operation: String?) -> Delay.Hold? {
        state.withLock { s in
            s.faults.delays.first { delay in
                delay.methods.contains(method) || (method == "invoke" && operation.map(delay.operations.contains) == true)
            }?.hold
        }
    }

    /// Makes the next `count` `create` requests fail as KMS does over its resource limits: 40009
    /// `Reached KMS threads limit: <threadsLimit>`, data type NOT_ENOUGH_RESOURCES (RM `checkThreads`).
    public func refuseCreates(_ count: Int = .max, threadsLimit: Int = 1024) {
        state.withLock { s in
            s.faults.refusedCreates = count
            s.faults.threadsLimit = threadsLimit
        }
    }

    /// Lets `create` succeed again.
    public func allowCreates() { state.withLock { $0.faults.refusedCreates = 0 } }

    /// Emits an `Error` event from `objectID` (an id, or `manager_ServerManager`) to its subscribers. KMS: CORE-KMD
    /// `Error` extends RaiseBase: `description`, `errorCode` and its own `type` (MEI `processBusMessage` uses
    /// e.g. "UNEXPECTED_ELEMENT_ERROR", "RESOURCE_ERROR_OPEN", "STREAM_ERROR_FAILED").
    public func emitError(
        on objectID: String, description: String, errorCode: Int = 1, type: String = "UNEXPECTED_ELEMENT_ERROR"
    ) {
        state.withLock { s in
            emit("Error", from: objectID, ["description": description, "errorCode": errorCode, "type": type],
                 raiseBaseOnly: true, in: &s)
        }
    }

    /// Sends `text` as one text frame to every open connection, as is (an unknown event, a malformed reply, …).
    public func sendRaw(_ text: String) {
        for socket in state.withLock({ Array($0.sockets.values) }) { socket.send(text) }
    }

    /// Makes the next `processOffer` answer lose its last m-line, which breaks RFC 3264 (the endpoint itself keeps
    /// the answer it made).
    public func corruptNextAnswer() { state.withLock { $0.faults.corruptNextAnswer = true } }

    /// Cuts every connection (TCP, no close frame). Sessions, objects and subscriptions stay: a client reconnects
    /// with `connect {sessionId}` within the collector's period.
    public func dropConnections() {
        let sockets = state.withLock { Self.detachSockets(&$0) }
        for socket in sockets { socket.cut() }
    }

    /// Forgets every socket and its session pairing; returns the sockets, to cut outside the lock.
    private static func detachSockets(_ s: inout State) -> [Socket] {
        defer {
            s.sockets = [:]
            s.sessionOfSocket = [:]
            s.socketOfSession = [:]
        }
        return Array(s.sockets.values)
    }
}
