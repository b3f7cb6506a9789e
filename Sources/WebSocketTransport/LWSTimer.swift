import CLibWebSockets

/// A `clws_timer` (an `lws_sorted_usec_list_t` followed by an owner pointer) in C memory that lws links into its
/// timer list: one per loop for the connection sweep, one per server for the round-trip probe. Never one per
/// connection: each insert walks lws's sorted list (docs/libwebsockets.md#keepalive).
extension UnsafeMutablePointer where Pointee == clws_timer {
    /// Allocates a timer whose callback finds `owner` (unretained) through `clws_timer_owner`.
    static func timer(owner: AnyObject) -> Self {
        let timer = Self.allocate(capacity: 1)
        timer.initialize(to: clws_timer())
        timer.pointee.owner = Unmanaged.passUnretained(owner).toOpaque()
        return timer
    }

    /// The `lws_sorted_usec_list_t` at the start of the timer, what `lws_sul_schedule` and `lws_sul_cancel` take.
    var sul: UnsafeMutablePointer<lws_sorted_usec_list_t> {
        UnsafeMutableRawPointer(self).assumingMemoryBound(to: lws_sorted_usec_list_t.self)
    }
}
