/// Room lifecycle events for the application, published on ``RoomServer/events`` in the order the room state
/// changed (docs/architecture.md#event-streams: state first, then the event).
public enum RoomServerEvent: Sendable, Hashable {
    /// Why a participant is no longer in its room.
    public enum Departure: Sendable, Hashable {
        /// The client sent `leaveRoom`.
        case left
        /// Its session ended: the socket was lost and the reconnection window ran out, or `closeSession`.
        case evicted
        /// The application closed the room.
        case roomClosed
    }

    /// A first join created `room`.
    case roomCreated(room: String)
    /// `user` joined `room`.
    case participantJoined(room: String, user: String)
    /// `user` started publishing.
    case participantPublished(room: String, user: String)
    /// `user` stopped publishing (also when leaving while publishing).
    case participantUnpublished(room: String, user: String)
    /// `user` is no longer in `room`.
    case participantLeft(room: String, user: String, departure: Departure)
    /// `room` is gone: its last participant left, or the application closed it.
    case roomClosed(room: String)
}
