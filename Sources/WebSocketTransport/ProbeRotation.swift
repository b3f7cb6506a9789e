/// Which connections one round of the round-trip probe pings (docs/libwebsockets.md#round-trip-probe): all of them
/// while they number at most `limit`; past it, one in ``stride`` of those probed before, a different share each
/// round, and every connection not probed yet. Over ``stride`` consecutive rounds each connection is chosen once.
struct ProbeRotation: Equatable {
    /// Rounds per full pass: ⌈count / limit⌉, at least 1.
    let stride: Int
    /// The share (index modulo ``stride``) this round pings.
    let share: Int

    /// The selection of round number `round` among `count` connections, with at most about `limit` per round.
    init(count: Int, limit: Int, round: Int) {
        let limit = max(1, limit)
        stride = max(1, (count + limit - 1) / limit)
        share = round % stride
    }

    /// Whether the connection at `index` (its place in this round's iteration) is pinged.
    func includes(index: Int, probed: Bool) -> Bool {
        stride == 1 || !probed || index % stride == share
    }
}
