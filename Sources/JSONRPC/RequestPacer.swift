import SignalingSupport
import Synchronization

/// Spaces a client's requests evenly at a rate (``JSONRPCClient/paceRequests(perSecond:)``): each request takes the
/// next free slot, `1 / rate` after the one before, so that no second holds more than the rate a server allows. Off
/// (no waiting) until a rate is set.
final class RequestPacer: Sendable {
    private struct State {
        var rate: Double?
        var interval: Duration?
        var next: ClockInstant?
    }

    private let state = LockedValue(State())
    /// Whether a rate is set: read without the lock, so that an unpaced request (the default) costs no clock read
    /// and no lock on the call path.
    private let isOn = Atomic<Bool>(false)

    /// Sets the rate, in requests per second; `nil` or a rate that is not positive turns pacing off.
    func setRate(_ perSecond: Double?) {
        let rate = perSecond.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        state.withLock {
            $0.rate = rate
            $0.interval = rate.map { Duration.seconds(1 / $0) }
        }
        isOn.store(rate != nil, ordering: .releasing)
    }

    /// The current rate, in requests per second; `nil` when off.
    var rate: Double? { state.withLock { $0.rate } }

    /// Takes the next slot at or after `now`; returns how long to wait for it (zero when it is now).
    func reserve(at now: @autoclosure () -> ClockInstant) -> Duration {
        guard isOn.load(ordering: .acquiring) else { return .zero }
        let now = now()
        return state.withLock { s in
            guard let interval = s.interval else { return .zero }
            let slot = max(now, s.next ?? now)
            s.next = slot + interval
            return slot - now
        }
    }
}
