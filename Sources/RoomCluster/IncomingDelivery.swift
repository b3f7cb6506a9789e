import RoomClusterCore
import SignalingSupport

/// ``ClusterNode/events``' producer side: at most `capacity` events held for the server, and changes of state
/// (``/RoomClusterCore/ClusterIncoming/unavailable(_:)``, ``/RoomClusterCore/ClusterIncoming/restored``) never dropped.
///
/// An event that finds the server holding `capacity` already is lost; `onOverflow` then begins an outage, so the
/// server hears ``/RoomClusterCore/ClusterIncoming/unavailable(_:)`` and resynchronizes on
/// ``/RoomClusterCore/ClusterIncoming/restored``. The stream has room for two changes of state beyond the events; one
/// that still finds it full waits, in order, and is retried every few milliseconds until the server makes room. Events
/// that come while one waits, or after an overflow until the next ``/RoomClusterCore/ClusterIncoming/restored`` is
/// delivered, are lost too (the resynchronization after it covers them).
final class IncomingDelivery: Sendable {
    /// How often waiting changes of state are tried again.
    static let retryInterval: Duration = .milliseconds(10)
    /// Room for an outage's two changes of state beyond `capacity` events.
    static let reserve = 2

    private struct State {
        var overflowed = false
        var waiting: [ClusterNode.Incoming] = []
        var retrying = false
        var finished = false
        var onOverflow: (@Sendable (String) -> Void)?
    }
    private let continuation: AsyncStream<ClusterNode.Incoming>.Continuation
    private let state = LockedValue(State())

    /// A delivery into `stream`, which holds at most `capacity` events (and room for two changes of state).
    static func makeStream(capacity: Int) -> (stream: AsyncStream<ClusterNode.Incoming>, delivery: IncomingDelivery) {
        let (stream, continuation) = AsyncStream<ClusterNode.Incoming>.makeStream(
            bufferingPolicy: .bufferingOldest(max(1, capacity) + reserve))
        return (stream, IncomingDelivery(continuation))
    }

    private init(_ continuation: AsyncStream<ClusterNode.Incoming>.Continuation) { self.continuation = continuation }

    /// What to do once events were lost because the server fell behind (begin an outage).
    func onOverflow(_ body: @escaping @Sendable (String) -> Void) { state.withLock { $0.onOverflow = body } }

    /// Delivers `incoming`: an event unless the server holds the capacity already, a change of state always.
    func yield(_ incoming: ClusterNode.Incoming) {
        if case .event = incoming { deliver(event: incoming) } else { deliver(change: incoming) }
    }

    /// Ends the stream; waiting changes of state are dropped.
    func finish() {
        state.withLock { s in
            s.finished = true
            s.waiting = []
        }
        continuation.finish()
    }

    private func deliver(event: ClusterNode.Incoming) {
        let overflow = state.withLock { s -> (@Sendable (String) -> Void)? in
            if !s.overflowed, s.waiting.isEmpty, !s.finished {
                // An event that enters the reserve is held, but counts as the overflow, so that the outage it
                // begins has room.
                let result = continuation.yield(event)
                if case .enqueued(let remaining) = result, remaining >= Self.reserve { return nil }
                if case .terminated = result { return nil }
            }
            guard !s.overflowed, !s.finished else { return nil }
            s.overflowed = true
            return s.onOverflow
        }
        overflow?("events dropped: the server fell behind")
    }

    private func deliver(change: ClusterNode.Incoming) {
        let retry = state.withLock { s -> Bool in
            guard !s.finished else { return false }
            s.waiting.append(change)
            flush(&s)
            guard !s.waiting.isEmpty, !s.retrying else { return false }
            s.retrying = true
            return true
        }
        guard retry else { return }
        Task {
            while true {
                try? await Task.sleep(for: Self.retryInterval)
                let done = state.withLock { s -> Bool in
                    flush(&s)
                    guard s.waiting.isEmpty || s.finished else { return false }
                    s.retrying = false
                    return true
                }
                if done { return }
            }
        }
    }

    /// Delivers the changes of state that wait, in order, while the stream has room; a delivered
    /// ``/RoomClusterCore/ClusterIncoming/restored`` ends an overflow (the server resynchronizes after it).
    private func flush(_ s: inout State) {
        while let first = s.waiting.first {
            if case .dropped = continuation.yield(first) { return }
            s.waiting.removeFirst()
            if first == .restored { s.overflowed = false }
        }
    }
}
