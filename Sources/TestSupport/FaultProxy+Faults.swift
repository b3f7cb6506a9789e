import SignalingSupport

extension FaultProxy {
    /// One direction of a link.
    public enum Direction: Sendable, Hashable, CaseIterable {
        /// What the client sends to the server.
        case clientToServer
        /// What the server sends to the client.
        case serverToClient
    }

    /// The faults of the proxy or of one link, per direction.
    struct Faults {
        var paused: Set<Direction> = []
        var dropping: Set<Direction> = []
        var delay: [Direction: Duration] = [:]
        /// Directions whose next chunk is cut in half, then the link reset (once).
        var cutting: Set<Direction> = []

        /// What a pump of one direction does with a chunk.
        struct Effective {
            var paused = false
            var dropping = false
            var delay: Duration = .zero
            var ended = false
            var cutting = false
        }

        /// These faults and `other`'s together, for `direction`: paused or dropping if either is, the longer delay.
        func combined(with other: Faults, _ direction: Direction, ended: Bool) -> Effective {
            Effective(paused: paused.contains(direction) || other.paused.contains(direction),
                      dropping: dropping.contains(direction) || other.dropping.contains(direction),
                      delay: max(delay[direction] ?? .zero, other.delay[direction] ?? .zero), ended: ended,
                      cutting: cutting.contains(direction) || other.cutting.contains(direction))
        }
    }

    // MARK: - Faults of every link, present and future

    /// Stops forwarding in both directions; connections stay open and bytes wait (a stalled network).
    public func pause() { state.withLock { $0.faults.paused = Set(Direction.allCases) } }

    /// Stops forwarding in `direction` only; the other direction keeps flowing and bytes wait.
    public func pause(_ direction: Direction) { state.withLock { _ = $0.faults.paused.insert(direction) } }

    /// Forwards again, both ways, what waited and what comes (the proxy's pauses; a ``Link``'s own stay).
    public func resume() { state.withLock { $0.faults.paused = [] } }

    /// Forwards again in `direction` what waited and what comes.
    public func resume(_ direction: Direction) { state.withLock { _ = $0.faults.paused.remove(direction) } }

    /// Whether arriving bytes are discarded, both ways, instead of forwarded (a black hole). Reads true only when
    /// both directions are black holes.
    public var dropping: Bool {
        get { state.withLock { $0.faults.dropping.count == Direction.allCases.count } }
        set { state.withLock { $0.faults.dropping = newValue ? Set(Direction.allCases) : [] } }
    }

    /// Makes `direction` a black hole: what arrives from its sender is read and discarded, so the sender's kernel
    /// buffers drain into the void while it believes it delivered. The other direction keeps flowing.
    public func blackHole(_ direction: Direction) { state.withLock { _ = $0.faults.dropping.insert(direction) } }

    /// Forwards `direction` again (bytes discarded meanwhile stay lost).
    public func endBlackHole(_ direction: Direction) { state.withLock { _ = $0.faults.dropping.remove(direction) } }

    /// How long each chunk is held, both ways, before it is forwarded. Default zero. Reads the longer of the two.
    public var delay: Duration {
        get { state.withLock { $0.faults.delay.values.max() ?? .zero } }
        set { state.withLock { s in for direction in Direction.allCases { s.faults.delay[direction] = newValue } } }
    }

    /// Holds each chunk of `direction` for `delay` before forwarding it (zero: no delay).
    public func setDelay(_ delay: Duration, for direction: Direction) {
        state.withLock { $0.faults.delay[direction] = delay }
    }

    /// Forwards the first half (at least a byte) of the next chunk of `direction`, then resets that link (both peers
    /// get a TCP reset), once: a reply cut in half, as when a server dies mid-write. The request it answers ran.
    public func cutNextChunkInHalfAndReset(_ direction: Direction) {
        state.withLock { _ = $0.faults.cutting.insert(direction) }
    }
}
