/// What the join authorizer of ``RoomServer/Configuration`` sees (DESIGN §6): who wants to join which room.
public struct RoomJoinAttempt: Sendable, Hashable {
    /// The `user` of `joinRoom`, already checked against the naming rules.
    public var user: String
    /// The `room` of `joinRoom`.
    public var room: String

    /// Creates an attempt.
    public init(user: String, room: String) {
        self.user = user
        self.room = room
    }
}
