import SignalingSupport

/// Values as they arrive (a test's view of an event stream), read one at a time in arrival order: each read waits,
/// with a deadline, for the next one.
public final class Arrivals<Element: Sendable>: Sendable {
    private let arrived = LockedValue<[Element]>([])
    private let cursor = LockedValue(0)
    private let label: String

    /// Empty arrivals; `label` names them in a deadline error.
    public init(_ label: String) { self.label = label }

    /// Collects every element of `stream` (and, when it ends or fails, `end` if given).
    public convenience init<S: AsyncSequence & Sendable>(_ label: String, of stream: S, end: Element? = nil)
        where S.Element == Element
    {
        self.init(label)
        Task { [self] in
            do { for try await element in stream { append(element) } } catch {}
            if let end { append(end) }
        }
    }

    /// Adds one arrival.
    public func append(_ element: Element) { arrived.withLock { $0.append(element) } }

    /// The next arrival not read yet.
    public func next() async throws -> Element {
        let index = cursor.withLock { $0 }
        try await waitUntil("\(label): arrival \(index)") { self.arrived.withLock { $0 }.count > index }
        cursor.withLock { $0 += 1 }
        return arrived.withLock { $0 }[index]
    }

    /// Everything that arrived so far.
    public var all: [Element] { arrived.withLock { $0 } }
}
