import Foundation
import JSONRPC
import RoomClient

/// What the run loop reacts to: the room's events and its own timers, merged into one ordered stream.
enum Step: Sendable {
    /// A room event.
    case event(RoomEvent)
    /// The room's events ended (the client was released or fell behind).
    case eventsEnded
    /// `--wait-timeout` passed before the awaited participants were present.
    case waitExpired
    /// `--duration` passed since the actions were done.
    case durationElapsed
    /// Interactive mode: a line typed on stdin (see ``Steps/readStandardInput()``).
    case input(String)
    /// Interactive mode: stdin ended.
    case inputEnded
    /// `/leave` or the end of input waited ``ChatEchoes/bound`` for the echo of the user's own chat.
    case echoWaitExpired
}

/// The merged stream of ``Step``s: room events are forwarded as they come, timers are added with ``after(_:_:)``.
final class Steps: Sendable {
    let stream: AsyncStream<Step>
    private let continuation: AsyncStream<Step>.Continuation

    init(_ events: Broadcast<RoomEvent>.Subscription) {
        (stream, continuation) = AsyncStream<Step>.makeStream()
        Task { [continuation] in
            do {
                for try await event in events { continuation.yield(.event(event)) }
            } catch {}
            continuation.yield(.eventsEnded)
        }
    }

    /// Yields `step` now.
    func yield(_ step: Step) { continuation.yield(step) }

    /// Reads stdin line by line on a thread of its own (`readLine` blocks, which a cooperative thread must never
    /// do), yielding ``Step/input(_:)`` for each line and ``Step/inputEnded`` at its end.
    func readStandardInput() {
        Thread.detachNewThread { [continuation] in
            while let line = readLine() { continuation.yield(.input(line)) }
            continuation.yield(.inputEnded)
        }
    }

    /// Yields `step` once `seconds` have passed.
    func after(_ seconds: Double, _ step: Step) {
        Task { [continuation] in
            try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            continuation.yield(step)
        }
    }
}
