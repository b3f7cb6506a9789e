import Dispatch

/// The timers behind ``SystemClock``: one lock-guarded min-heap of deadlines and one dispatch timer source armed
/// at the earliest, for the whole process.
///
/// Why not one `asyncAfter` per timer: every JSON-RPC call schedules a timeout that is almost always cancelled
/// within microseconds, and each `asyncAfter` woke libdispatch's manager thread to re-sort its own timer list
/// (about 15 % of a pipelined client's CPU). Here scheduling a later deadline than the armed one is a
/// heap push under a lock, and cancelling touches only the timer's own lock. Due actions still run on a concurrent
/// queue, as before.
///
/// Cancelled timers are dropped lazily: a push that finds the heap at its compaction mark first drops every entry
/// that is no longer pending, and the mark becomes twice what is left. So the heap holds at most about twice the
/// timers still pending (and never needs compacting below ``minimumCompactionMark``), whatever the rate at which
/// timers come and go: at 30k calls/s with a 5 s timeout it no longer keeps 150k dead entries. Each compaction
/// costs O(n) and follows at least n/2 pushes, so a push stays amortized O(log n).
// @unchecked: `state` is lock-guarded; `source` and `actions` are set once in init, and the source is only
// rescheduled while `state`'s lock is held.
final class SystemTimerQueue: @unchecked Sendable {
    static let shared = SystemTimerQueue()

    /// Below this many entries the heap is never compacted: dead entries are cheaper than scanning.
    static let minimumCompactionMark = 1024

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
        /// The heap size at which the next push first drops cancelled entries.
        var compactionMark = SystemTimerQueue.minimumCompactionMark
    }

    private let state = LockedValue(State())
    private let source: any DispatchSourceTimer
    /// Runs the source's handler, and releases the entries a compaction dropped.
    private let timerQueue = DispatchQueue(label: "KurentoSignaling.SystemClock.timer")
    private let actions = DispatchQueue(label: "KurentoSignaling.SystemClock", attributes: .concurrent)

    /// Creates a queue with its own dispatch timer. The process uses ``shared``; tests make their own.
    init() {
        source = DispatchSource.makeTimerSource(queue: timerQueue)
        source.schedule(deadline: .distantFuture)
        source.setEventHandler { [weak self] in self?.fireDue() }
        source.activate()
    }

    deinit { source.cancel() }

    /// The entries in the heap: pending timers plus cancelled ones not dropped yet (for tests).
    var count: Int { state.withLock { $0.heap.count } }

    /// Runs `timer` on the action queue once `DispatchTime.now()` reaches `deadline` (uptime nanoseconds).
    func schedule(_ timer: DispatchTimerHandle, at deadline: UInt64) {
        let dropped = state.withLock { s -> [Entry]? in
            let dropped = s.heap.count >= s.compactionMark ? compact(&s) : nil
            s.sequence += 1
            push(Entry(deadline: deadline, sequence: s.sequence, timer: timer), into: &s.heap)
            if let armed = s.armed, armed <= deadline { return dropped }
            s.armed = deadline
            source.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: .milliseconds(1))
            return dropped
        }
        // Freeing a thousand handles is the caller's business no more than when they were popped at their
        // deadlines: the timer's queue does it, as it did then.
        if let dropped { timerQueue.async { withExtendedLifetime(dropped) {} } }
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

    /// Drops the entries whose timers were cancelled (or already fired) and rebuilds the heap in O(n); returns
    /// the old heap, to be released off the caller's thread. The armed deadline may now belong to a dropped entry:
    /// the source then fires once early, finds nothing due and re-arms at the new earliest deadline.
    private func compact(_ s: inout State) -> [Entry] {
        var kept = s.heap.filter { $0.timer.isPending }  // a new, right-sized array: the dead entries' memory goes
        for parent in stride(from: kept.count / 2 - 1, through: 0, by: -1) { siftDown(from: parent, in: &kept) }
        s.compactionMark = max(Self.minimumCompactionMark, 2 * kept.count)
        defer { s.heap = kept }
        return s.heap
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
        siftDown(from: 0, in: &heap)
        return top
    }

    private func siftDown(from start: Int, in heap: inout [Entry]) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
            if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
            if smallest == parent { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
