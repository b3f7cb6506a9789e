/// The participants to wait for (``RoomClient/waitForParticipants(_:timeout:)``, `room-join --wait-for` and
/// `--expect-peers`): these users, and at least ``count`` other participants.
public struct ParticipantPresence: Sendable, Hashable {
    /// Users that must be in the room.
    public var users: [String]
    /// How many other participants must be in the room, at least; `nil` for no count.
    public var count: Int?

    /// Creates a condition; the default is met by any room.
    public init(users: [String] = [], count: Int? = nil) {
        self.users = users
        self.count = count
    }

    /// Whether `peers` (the other participants) meets both conditions.
    public func isSatisfied(by peers: [Peer]) -> Bool {
        let present = Set(peers.map(\.identifier))
        return users.allSatisfy(present.contains) && peers.count >= (count ?? 0)
    }

    /// What is still missing from `peers`, for a timeout message: the users absent, and the count when short.
    public func missing(from peers: [Peer]) -> String {
        let present = Set(peers.map(\.identifier))
        var parts = users.filter { !present.contains($0) }
        if let count, peers.count < count { parts.append("\(count) participants (have \(peers.count))") }
        return parts.joined(separator: ", ")
    }
}

/// Why ``RoomClient/waitForParticipants(_:timeout:)`` returned without the participants.
public enum ParticipantWaitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The timeout passed; `missing` says what was still missing (``ParticipantPresence/missing(from:)``).
    case timedOut(missing: String)
    /// The local user is not in the room (not joined, or left, evicted, the room closed, the connection ended).
    case notInRoom

    public var description: String {
        switch self {
        case .timedOut(let missing): "timed out waiting for \(missing)"
        case .notInRoom: "not in the room"
        }
    }
}
