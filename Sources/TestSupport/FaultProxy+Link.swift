import SignalingSupport

extension FaultProxy {
    /// One connection through the proxy and its connection to the target, for faults on it alone: a session taken
    /// over by a second connection while this one is paused or black-holed, say. Its faults add to the proxy's
    /// (``FaultProxy``); they end with the link. A handle to a link that ended does nothing.
    public struct Link: Sendable, Hashable, CustomStringConvertible {
        /// The link's number: 1 for the first connection accepted and forwarded, then 2, …
        public let number: UInt64
        let proxy: FaultProxy

        /// Whether both name the same link of the same proxy.
        public static func == (lhs: Link, rhs: Link) -> Bool { lhs.number == rhs.number && lhs.proxy === rhs.proxy }
        /// Hashes the link's number.
        public func hash(into hasher: inout Hasher) { hasher.combine(number) }
        /// "link N", for messages.
        public var description: String { "link \(number)" }

        /// Whether the link is still forwarding (neither side ended and it was neither cut nor reset).
        public var isOpen: Bool { proxy.state.withLock { $0.links[number].map { !$0.ended } ?? false } }

        /// Stops forwarding in `direction` on this link; bytes wait.
        public func pause(_ direction: Direction) { update { _ = $0.paused.insert(direction) } }

        /// Forwards again in `direction` on this link what waited and what comes.
        public func resume(_ direction: Direction) { update { _ = $0.paused.remove(direction) } }

        /// Makes `direction` of this link a black hole (``FaultProxy/blackHole(_:)``).
        public func blackHole(_ direction: Direction) { update { _ = $0.dropping.insert(direction) } }

        /// Forwards `direction` of this link again.
        public func endBlackHole(_ direction: Direction) { update { _ = $0.dropping.remove(direction) } }

        /// Holds each chunk of `direction` of this link for `delay` (zero: no delay).
        public func setDelay(_ delay: Duration, for direction: Direction) { update { $0.delay[direction] = delay } }

        /// Resets this link: both peers get a TCP reset (``FaultProxy/resetAll(refusingFor:)``).
        public func reset() { proxy.end([number], resetting: true) }

        /// Cuts this link: both peers read the end of the stream (``FaultProxy/cutAll(refusingFor:)``).
        public func cut() { proxy.end([number], resetting: false) }

        private func update(_ body: (inout Faults) -> Void) {
            proxy.state.withLock { s in
                guard var pair = s.links[number] else { return }
                body(&pair.faults)
                s.links[number] = pair
            }
        }
    }

    /// The links being forwarded now, oldest first.
    public var links: [Link] {
        state.withLock { $0.links.keys.sorted() }.map { Link(number: $0, proxy: self) }
    }

    /// The newest link being forwarded now.
    public var newestLink: Link? { links.last }

    /// Waits until a link numbered above `number` is forwarded (the next connection once `number` is the newest
    /// one's, or 0 for the first), and returns the first such link.
    /// - Throws: `DeadlineExceeded` after `timeout` (scaled by `KS_DEADLINE_SCALE`).
    public func waitForLink(after number: UInt64 = 0, timeout: Duration = .seconds(10)) async throws -> Link {
        try await waitUntil("a link through the proxy numbered above \(number)", timeout: timeout) { [self] in
            links.contains { $0.number > number }
        }
        return links.first { $0.number > number } ?? Link(number: number + 1, proxy: self)
    }
}
