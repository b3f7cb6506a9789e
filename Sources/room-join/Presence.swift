import RoomClient

/// The participants `--wait-for` and `--expect-peers` ask for before `room-join` acts.
struct Presence {
    /// Users that must be in the room.
    var users: [String]
    /// How many other participants must be in the room, at least.
    var count: Int?

    /// Whether `peers` satisfies both conditions.
    func isSatisfied(by peers: [Peer]) -> Bool {
        let present = Set(peers.map(\.identifier))
        return users.allSatisfy(present.contains) && peers.count >= (count ?? 0)
    }

    /// What is still missing from `peers`, for the timeout message.
    func missing(from peers: [Peer]) -> String {
        let present = Set(peers.map(\.identifier))
        var parts = users.filter { !present.contains($0) }
        if let count, peers.count < count { parts.append("\(count) participants (have \(peers.count))") }
        return parts.joined(separator: ", ")
    }
}
