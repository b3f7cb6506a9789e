import SignalingSupport

extension FaultProxy {
    /// What the black holes of one direction swallowed: every byte counted, the first ``retainedLimit`` kept so a
    /// test can wait for a write it knows the text of (``waitUntilDiscarded(_:_:timeout:)``).
    struct Discarded {
        /// Bytes kept for searching; later ones are only counted.
        static let retainedLimit = 16 << 20
        var count = 0
        var retained: [UInt8] = []

        mutating func append(_ bytes: ArraySlice<UInt8>) {
            count += bytes.count
            retained.append(contentsOf: bytes.prefix(max(0, Self.retainedLimit - retained.count)))
        }
    }

    /// The bytes the black holes of `direction` (the proxy's and every link's) have read and discarded so far.
    public func discardedBytes(_ direction: Direction) -> Int {
        state.withLock { $0.discarded[direction]?.count ?? 0 }
    }

    /// Waits until a black hole of `direction` swallowed `text` (its UTF-8 bytes, in one piece, among the first
    /// 16 MiB discarded in that direction): the event that proves a peer wrote it into the void. A server's
    /// WebSocket frames are not masked, so a notification's text appears as it was sent.
    /// - Throws: `DeadlineExceeded` after `timeout` (scaled by `KS_DEADLINE_SCALE`).
    public func waitUntilDiscarded(_ text: String, _ direction: Direction, timeout: Duration = .seconds(10)) async throws {
        let needle = Array(text.utf8)
        let searched = LockedValue(0)
        try await waitUntil("the black hole (\(direction)) to swallow \(text)", timeout: timeout) { [self] in
            state.withLock { s in
                let retained = s.discarded[direction]?.retained ?? []
                let from = searched.withLock { $0 }
                searched.withLock { $0 = max(0, retained.count - needle.count + 1) }
                return retained[min(from, retained.count)...].firstRange(of: needle) != nil
            }
        }
    }
}
