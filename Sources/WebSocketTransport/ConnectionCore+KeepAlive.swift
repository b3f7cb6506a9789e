import CLibWebSockets

/// Keep-alive of one connection (docs/libwebsockets.md#keepalive): ``ConnectionLimits/pingInterval`` after the last
/// sign of life a PING goes out, ``ConnectionLimits/idleTimeout`` after it the connection is dropped. The loop's
/// one sweep timer checks every watched connection once per period (``WebSocketEventLoop/sweepTick()``), so
/// a connection costs nothing per message but a flag, and nothing per sweep but a comparison. lws's own
/// validity timers are off: each re-arm walks lws's sorted timer list (`lws_dll2_add_sorted`), O(connections), and
/// 10,000 connections spent whole seconds of CPU in it at every ping round.
extension ConnectionCore {
    /// The sweep period that checks `limits` closely enough (a quarter of the shortest interval involved, 10 ms to
    /// 1 s), or `nil` when the limits ask for no keep-alive at all.
    static func keepAlivePeriod(_ limits: ConnectionLimits) -> Duration? {
        let (ping, hangUp) = keepAliveIntervals(limits)
        let intervals = [ping, hangUp, ping.flatMap { p in hangUp.map { $0 - p } }].compactMap { $0 }
        guard let shortest = intervals.min() else { return nil }
        return min(max(shortest / 4, .milliseconds(10)), .seconds(1))
    }

    /// The keep-alive PING interval and idle timeout that apply: each `nil` when off (zero or less), and no PING
    /// at or above the idle timeout as configured (docs/libwebsockets.md#keepalive).
    static func keepAliveIntervals(_ limits: ConnectionLimits) -> (ping: Duration?, hangUp: Duration?) {
        let hangUp = limits.idleTimeout.flatMap { $0 > .zero ? $0 : nil }
        let ping = limits.pingInterval.flatMap { ping in
            ping > .zero && limits.idleTimeout.map { ping < $0 } ?? true ? ping : nil
        }
        return (ping, hangUp)
    }

    /// Service thread, at the upgrade: the first sign of life, and the loop's sweep watches this connection.
    func startKeepAlive() {
        guard let period = Self.keepAlivePeriod(limits) else { return }
        silentSince = .now
        keepAliveWatched = true
        loop.watchSweep(period: period)
    }

    /// Service thread: a frame or a PONG arrived. Only a flag: the sweep turns it into a time.
    @inline(__always)
    func heard() { heardSinceSweep = true }

    /// Service thread, from the loop's sweep at `now`: a close past its deadline whose peer takes nothing more is
    /// dropped; otherwise keep-alive (``checkKeepAlive(at:)``). Returns whether the connection still needs the sweep.
    func sweep(at now: ContinuousClock.Instant) -> Bool {
        guard let deadline = closeDeadline else { return checkKeepAlive(at: now) }
        guard !finished, let wsi else {
            closeDeadline = nil
            return false
        }
        guard now >= deadline else { return true }
        // The deadline is for a peer that does not take what we write. A socket that would take more means the
        // wait is ours (a loop busy with thousands of closes at once): give it another second rather than drop
        // the reply that is still queued.
        if lws_send_pipe_choked(wsi) == 0 {
            closeDeadline = now + .seconds(1)
            lws_callback_on_writable(wsi)
            return true
        }
        closeDeadline = nil
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
        return false
    }

    /// Service thread, from the sweep at `now`: asks for the keep-alive PING or drops the connection, when
    /// its time has come. Never early: a sign of life seen by this sweep counts as heard now, though it came
    /// earlier (so at most one sweep late). Returns whether the connection still needs watching.
    func checkKeepAlive(at now: ContinuousClock.Instant) -> Bool {
        guard keepAliveWatched, !finished, let wsi, peerClose == nil, localClose == nil else {
            keepAliveWatched = false
            return false
        }
        if heardSinceSweep {
            heardSinceSweep = false
            keepAlivePingedAt = nil
            silentSince = now
            return true
        }
        let silent = now - silentSince
        let (ping, hangUp) = Self.keepAliveIntervals(limits)
        // With a PING, the peer always gets `idleTimeout - pingInterval` after it to answer, even when a late sweep
        // (a busy loop, or libev's second) asked for the PING late.
        if let hangUp, silent >= hangUp,
           ping.map({ ping in keepAlivePingedAt.map { now - $0 >= hangUp - ping } ?? false }) ?? true {
            keepAliveWatched = false
            localClose = (WebSocketCloseCode.abnormal.rawValue, "nothing heard from the peer for \(hangUp)")
            lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
            return false
        }
        if let ping, keepAlivePingedAt == nil, silent >= ping {
            keepAlivePingedAt = now
            keepAlivePingDue = true
            lws_callback_on_writable(wsi)
        }
        return true
    }

    /// In WRITEABLE, between messages: the keep-alive PING (no payload). False when lws refused it (close).
    func writeKeepAlivePing(_ wsi: OpaquePointer) -> Bool {
        loop.writeScratch.withPayload(count: 0) { start in lws_write(wsi, start, 0, LWS_WRITE_PING) } >= 0
    }
}
