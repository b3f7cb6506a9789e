import SignalingSupport

/// Values as they arrive (a test's view of an event stream), read one at a time in arrival order: each read waits,
/// with a deadline, for the next one. A wait is woken by each arrival and checks its condition then (no polling);
/// conditions run outside the lock, so they may read the arrivals themselves.
public final class Arrivals<Element: Sendable>: Sendable {
    private struct State {
        var arrived: [Element] = []
        var cursor = 0
        /// The waits parked until the next arrival.
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state: LockedValue<State>
    private let label: String
    /// The task that reads the stream, if any: cancelled with the arrivals.
    private let consumer: Task<Void, Never>?

    /// Empty arrivals; `label` names them in a deadline error.
    public init(_ label: String) {
        self.label = label
        state = LockedValue(State())
        consumer = nil
    }

    /// Collects every element of `stream` (and, when it ends or fails, `end` if given), until the arrivals are
    /// released.
    public init<S: AsyncSequence & Sendable>(_ label: String, of stream: S, end: Element? = nil)
        where S.Element == Element
    {
        self.label = label
        let state = LockedValue(State())
        self.state = state
        consumer = Task {
            do { for try await element in stream { Self.append(element, to: state) } } catch {}
            if let end { Self.append(end, to: state) }
        }
    }

    deinit { consumer?.cancel() }

    /// Adds one arrival, and wakes every wait to check its condition.
    public func append(_ element: Element) { Self.append(element, to: state) }

    private static func append(_ element: Element, to state: LockedValue<State>) {
        let woken = state.withLock { s -> Dictionary<Int, CheckedContinuation<Void, Never>>.Values in
            s.arrived.append(element)
            defer { s.waiters = [:] }
            return s.waiters.values
        }
        for continuation in woken { continuation.resume() }
    }

    /// The next arrival not read yet.
    public func next(timeout: Duration = .seconds(10)) async throws -> Element {
        let index = state.withLock { $0.cursor }
        try await wait(until: "arrival \(index)", timeout: timeout) { $0.count > index }
        return state.withLock { s in
            s.cursor += 1
            return s.arrived[index]
        }
    }

    /// Waits until an element matching `matches` has arrived (at any time so far, read or not) and returns the
    /// first such element; reads nothing.
    @discardableResult
    public func first(
        _ what: String, timeout: Duration = .seconds(10), where matches: @escaping @Sendable (Element) -> Bool
    ) async throws -> Element {
        try await wait(until: what, timeout: timeout) { $0.contains(where: matches) }
        return all.first(where: matches)!
    }

    /// Waits until `condition` holds of everything arrived so far, checked now and at each arrival; reads nothing.
    public func wait(
        until what: String, timeout: Duration = .seconds(10), _ condition: @escaping @Sendable ([Element]) -> Bool
    ) async throws {
        try await withDeadline(timeout, "\(label): \(what)") { [self] in
            while true {
                let seen = all
                if condition(seen) { return }
                await nextArrival(after: seen.count)
                try Task.checkCancellation()
            }
        }
    }

    /// Everything that arrived so far.
    public var all: [Element] { state.withLock { $0.arrived } }

    /// Returns once more than `count` elements have arrived, or once the task is cancelled (the deadline).
    private func nextArrival(after count: Int) async {
        let id = state.withLock { s in
            defer { s.nextWaiter += 1 }
            return s.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { s -> Bool in
                    if Task.isCancelled || s.arrived.count > count { return true }
                    s.waiters[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
