import CLibWebSockets

/// The libev loop that a ``WebSocketEventLoop`` service thread runs for libwebsockets (``EventBackend/libev``):
/// lws is given it as a "foreign" loop, so lws installs no signal handlers and the thread decides when the loop
/// ends. Service thread only, after creation (the context is created with it before the thread starts).
final class LibevLoop {
    private let raw: UnsafeMutableRawPointer
    /// The one-element `foreign_loops` array lws reads while it creates the context and later; freed with the loop.
    let foreignLoops: UnsafeMutablePointer<UnsafeMutableRawPointer?>

    /// A new loop on libev's best backend (epoll on Linux); nil when libev cannot create one.
    init?() {
        guard let raw = clws_ev_loop_new() else { return nil }
        self.raw = raw
        foreignLoops = .allocate(capacity: 1)
        foreignLoops.initialize(to: raw)
    }

    /// Runs the loop until ``stop()``: this replaces calling `lws_service` over and over. Once a second it wakes
    /// lws (`lws_cancel_service`), so that lws's own timers (close acks, handshake timeouts) fire on time even when
    /// no socket is active: lws 4.1.6's libev plugin cannot bring its timer forward once armed.
    ///
    /// `mailbox` flushes its deferred writes once per turn, before the loop polls again (``ServiceMailbox/flushWrites()``).
    func run(context: OpaquePointer, mailbox: ServiceMailbox) {
        let tick = clws_ev_tick_start(raw, context, 1.0)
        let flush: @convention(c) (UnsafeMutableRawPointer?) -> Void = { owner in
            guard let owner else { return }
            Unmanaged<ServiceMailbox>.fromOpaque(owner).takeUnretainedValue().flushWrites()
        }
        let prepare = clws_ev_prepare_start(raw, flush, Unmanaged.passUnretained(mailbox).toOpaque())
        mailbox.flushesWrites = prepare != nil
        clws_ev_run(raw)
        mailbox.flushesWrites = false
        mailbox.flushWrites()
        clws_ev_prepare_stop(raw, prepare)
        clws_ev_tick_stop(raw, tick)
    }

    /// Makes ``run()`` return once the current callback has returned.
    func stop() { clws_ev_break(raw) }

    /// Frees the loop; call after `lws_context_destroy`, which detaches lws's watchers from it.
    func destroy() {
        clws_ev_loop_destroy(raw)
        foreignLoops.deallocate()
    }
}
