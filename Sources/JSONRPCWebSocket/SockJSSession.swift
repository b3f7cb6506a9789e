import JSONRPC
package import SignalingSupport

/// How a server runs SockJS sessions over its WebSocket connections (docs/wire-protocol.md#sockjs).
package struct SockJSOptions: Sendable {
    /// How long the server stays silent before it sends a heartbeat frame `h`. The specification's and Spring's
    /// default: 25 seconds (sockjs/sockjs-protocol `sockjs-protocol-0.3.3.py`, "Protocol and framing";
    /// spring-projects/spring-framework `AbstractSockJsService.java`, `heartbeatTime`).
    package var heartbeatInterval: Duration
    /// The clock of the heartbeat timer.
    package var clock: any SignalingClock

    /// Options with `heartbeatInterval` on `clock`.
    package init(heartbeatInterval: Duration = .seconds(25), clock: any SignalingClock = SystemClock()) {
        self.heartbeatInterval = heartbeatInterval
        self.clock = clock
    }
}

/// The SockJS state of one WebSocket connection: the messages of the last client frame not yet received, and the
/// heartbeat timer, restarted by every frame the server sends (as Spring's `AbstractSockJsSession` reschedules it
/// after each write).
final class SockJSSession: Sendable {
    private struct State {
        /// Messages of a client frame that carried several, in order.
        var pending: [String] = []
        /// When the server last sent a frame.
        var lastSent: ClockInstant
        var timer: (any TimerHandle)?
        var stopped = false
    }

    let options: SockJSOptions
    private let state: LockedValue<State>

    init(_ options: SockJSOptions) {
        self.options = options
        state = LockedValue(State(lastSent: options.clock.now))
    }

    /// The next message of the last client frame, if one is left.
    func takePending() -> String? {
        state.withLock { $0.pending.isEmpty ? nil : $0.pending.removeFirst() }
    }

    /// Keeps `messages` for ``takePending()``.
    func keep(_ messages: [String]) {
        state.withLock { $0.pending.append(contentsOf: messages) }
    }

    /// Notes that a frame went out now: the next heartbeat is due one interval later.
    func noteSent() {
        let now = options.clock.now
        state.withLock { $0.lastSent = now }
    }

    /// Runs `beat` each time the server was silent for the heartbeat interval, until ``stop()``; `beat` returns
    /// whether the heartbeat went out (`false`: the connection is closed, and the timer stops).
    func startHeartbeat(_ beat: @escaping @Sendable () -> Bool) {
        schedule(after: options.heartbeatInterval, beat)
    }

    private func schedule(after delay: Duration, _ beat: @escaping @Sendable () -> Bool) {
        let handle = options.clock.schedule(after: delay) { [weak self] in self?.tick(beat) }
        let stopped = state.withLock { state -> Bool in
            guard !state.stopped else { return true }
            state.timer = handle
            return false
        }
        if stopped { handle.cancel() }
    }

    private func tick(_ beat: @escaping @Sendable () -> Bool) {
        let now = options.clock.now
        let (stopped, silence) = state.withLock { ($0.stopped, now - $0.lastSent) }
        guard !stopped else { return }
        if silence >= options.heartbeatInterval {
            guard beat() else { return stop() }
            noteSent()
            schedule(after: options.heartbeatInterval, beat)
        } else {
            schedule(after: options.heartbeatInterval - silence, beat)
        }
    }

    /// Stops the heartbeat for good. Idempotent.
    func stop() {
        let timer = state.withLock { state -> (any TimerHandle)? in
            state.stopped = true
            defer { state.timer = nil }
            return state.timer
        }
        timer?.cancel()
    }
}
