import CLibWebSockets

/// The loop's connection sweep (docs/libwebsockets.md#keepalive): one `lws_sul` timer for every connection's
/// keep-alive and close deadline, armed while any connection is watched, so an idle loop without connections does
/// not wake for it. (Per-connection lws timers would each be inserted into lws's sorted list by a walk over it.)
extension WebSocketEventLoop {
    /// Service thread state of the sweep.
    struct KeepAliveClock {
        /// The time between sweeps: the shortest any watched connection asked for since the timer was armed (under
        /// libev lws services its timers at least once a second, so a sweep can come up to a second late:
        /// docs/libwebsockets.md#timers-under-libev).
        var period: Duration = .seconds(1)
        var timer: UnsafeMutablePointer<clws_timer>?
        var scheduled = false
    }

    /// Service thread: a connection needs the sweep (keep-alive limits, or a close deadline) at least every
    /// `period`.
    func watchSweep(period: Duration) {
        keepAliveClock.period = keepAliveClock.scheduled ? min(keepAliveClock.period, period) : period
        scheduleKeepAlive()
    }

    private func scheduleKeepAlive() {
        guard !keepAliveClock.scheduled, let context else { return }
        let timer: UnsafeMutablePointer<clws_timer>
        if let existing = keepAliveClock.timer {
            timer = existing
        } else {
            timer = .allocate(capacity: 1)
            timer.initialize(to: clws_timer())
            timer.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
            keepAliveClock.timer = timer
        }
        keepAliveClock.scheduled = true
        lws_sul_schedule(context, 0, Self.sul(timer), keepAliveTimerFired,
                         ConnectionCore.microseconds(keepAliveClock.period))
    }

    /// The sweep: every connection is checked; the timer is armed again while any is still watched.
    func keepAliveTick() {
        keepAliveClock.scheduled = false
        let now = ContinuousClock.now
        var watching = false
        for core in cores.values where core.sweep(at: now) { watching = true }
        if watching { scheduleKeepAlive() }
    }

    /// Unlinks the sweep timer from lws's list (while the context lives) and frees it.
    func endKeepAlive() {
        guard let timer = keepAliveClock.timer else { return }
        if keepAliveClock.scheduled, context != nil { lws_sul_cancel(Self.sul(timer)) }
        keepAliveClock.scheduled = false
        keepAliveClock.timer = nil
        timer.deallocate()
    }

    /// The `lws_sorted_usec_list_t` at the start of a `clws_timer`.
    private static func sul(_ timer: UnsafeMutablePointer<clws_timer>) -> UnsafeMutablePointer<lws_sorted_usec_list_t> {
        UnsafeMutableRawPointer(timer).assumingMemoryBound(to: lws_sorted_usec_list_t.self)
    }
}

/// The sweep timer's callback, called by lws on the service thread (`lws_sul`): a named global function
/// (docs/libwebsockets.md#named-functions). The owner is the loop, which outlives its context.
private func keepAliveTimerFired(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = clws_timer_owner(sul) else { return }
    let loop = Unmanaged<WebSocketEventLoop>.fromOpaque(owner).takeUnretainedValue()
    loop.mailbox.callback { loop.keepAliveTick() }
}
