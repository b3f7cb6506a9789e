/// The user's own chat messages sent and come back as `message` events (the server sends chat to the sender too):
/// `/leave` and the end of input wait, at most ``bound``, for the echoes still missing, so that the last line typed
/// is printed before `left`.
struct ChatEchoes {
    /// How long leaving waits for the missing echoes.
    static let bound = 2.0

    /// Chat messages sent (attempted: one that failed never comes back, and costs the wait).
    var sent = 0
    /// The user's own `message` events seen.
    var echoed = 0
    /// Whether the user asked to leave and the run waits for the echoes.
    private(set) var isLeaving = false

    /// Whether every message sent has come back.
    var isSettled: Bool { echoed >= sent }

    /// Starts waiting: `steps` yields ``Step/echoWaitExpired`` once ``bound`` has passed.
    mutating func leave(after steps: Steps) {
        isLeaving = true
        steps.after(Self.bound, .echoWaitExpired)
    }
}
