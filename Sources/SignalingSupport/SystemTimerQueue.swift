import Dispatch

/// The timers behind ``SystemClock``: one lock-guarded min-heap of deadlines and one dispatch timer source armed
/// at the earliest, for the whole process.
///
/// Why not one `asyncAfter` per timer: every JSON-RPC call schedules a timeout that is almost always cancelled
/// within microseconds, and each `asyncAfter` woke libdispatch's manager thread to re-sort its own timer list
/// (about 15 % of a pipelined client's CPU, issue 9). Here scheduling a later deadline than the armed one is a
/// heap push under a lock; cancelled timers stay in the heap until their deadline and are dropped unrun. Due
/// actions still run on a concurrent queue, as before.
// @unchecked: `state` is lock-guarded; `source` and `actions` are set once in init, and the source is only
// rescheduled while `state`'s lock is held.
final class SystemTimerQueue: @unchecked Sendable {
    static let shared = SystemTimerQueue()

    private struct Entry {
        var deadline: UInt64
        var sequence: UInt64
        var timer: DispatchTimerHandle

        func precedes(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : sequence < other.sequence
        }
    }

    private struct State {
        var heap: [Entry] = []
        var sequence: UInt64 = 0
        /// The deadline the source is armed for, if any.
        var armed: UInt64?
    }

    private let state = LockedValue(State())
    private let source: any DispatchSourceTimer
    private let actions = DispatchQueue(label: "KurentoSignaling.SystemClock", attributes: .concurrent)

    private init() {
        source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "KurentoSignaling.SystemClock.timer"))
        source.schedule(deadline: .distantFuture)
        source.setEventHandler { [unowned self] in fireDue() }
        source.activate()
    }

    /// Runs `timer` on the action queue once `DispatchTime.now()` reaches `deadline` (uptime nanoseconds).
    func schedule(_ timer: DispatchTimerHandle, at deadline: UInt64) {
        state.withLock { s in
            s.sequence += 1
            push(Entry(deadline: deadline, sequence: s.sequence, timer: timer), into: &s.heap)
            if let armed = s.armed, armed <= deadline { return }
            s.armed = deadline
            source.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: .milliseconds(1))
        }
    }

    private func fireDue() {
        let now = DispatchTime.now().uptimeNanoseconds
        let due = state.withLock { s -> [DispatchTimerHandle] in
            var due: [DispatchTimerHandle] = []
            while let first = s.heap.first, first.deadline <= now {
                let entry = pop(from: &s.heap)
                if entry.timer.isPending { due.append(entry.timer) }
            }
            s.armed = s.heap.first?.deadline
            if let armed = s.armed {
                source.schedule(deadline: DispatchTime(uptimeNanoseconds: armed), leeway: .milliseconds(1))
            }
            return due
        }
        for timer in due { actions.async { timer.fire() } }
    }

    private func push(_ entry: Entry, into heap: inout [Entry]) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func pop(from heap: inout [Entry]) -> Entry {
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
            if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
            if smallest == parent { return top }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
