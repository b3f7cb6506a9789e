import CLibWebSockets

/// The loop's connection sweep (docs/libwebsockets.md#keepalive): one `lws_sul` timer for every connection's
/// keep-alive and close deadline, armed while any connection is watched, so an idle loop without connections does
/// not wake for it. (Per-connection lws timers would each be inserted into lws's sorted list by a walk over it.)
extension WebSocketEventLoop {
    /// Service thread state of the sweep.
    struct SweepTimer {
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
        sweepTimer.period = sweepTimer.scheduled ? min(sweepTimer.period, period) : period
        scheduleSweep()
    }

    private func scheduleSweep() {
        guard !sweepTimer.scheduled, let context else { return }
        let timer = sweepTimer.timer ?? .timer(owner: self)
        sweepTimer.timer = timer
        sweepTimer.scheduled = true
        lws_sul_schedule(context, 0, timer.sul, sweepTimerFired, ConnectionCore.microseconds(sweepTimer.period))
    }

    /// The sweep: every connection is checked; the timer is armed again while any is still watched.
    func sweepTick() {
        sweepTimer.scheduled = false
        let now = ContinuousClock.now
        var watching = false
        for core in cores.values where core.sweep(at: now) { watching = true }
        if watching { scheduleSweep() }
    }

    /// Unlinks the sweep timer from lws's list (while the context lives) and frees it.
    func endSweep() {
        guard let timer = sweepTimer.timer else { return }
        if sweepTimer.scheduled, context != nil { lws_sul_cancel(timer.sul) }
        sweepTimer.scheduled = false
        sweepTimer.timer = nil
        timer.deallocate()
    }
}

/// The sweep timer's callback, called by lws on the service thread (`lws_sul`): a named global function
/// (docs/libwebsockets.md#named-functions). The owner is the loop, which outlives its context.
private func sweepTimerFired(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul, let owner = clws_timer_owner(sul) else { return }
    let loop = Unmanaged<WebSocketEventLoop>.fromOpaque(owner).takeUnretainedValue()
    loop.mailbox.callback { loop.sweepTick() }
}
