/// Room lifecycle events for the application, published on ``RoomServer/events`` in the order the room state
/// changed (docs/architecture.md#event-streams: state first, then the event).
///
/// With a cluster they tell of the participants of other nodes too, in the rooms this node has members in, as it
/// learns them from the other nodes' events (``RoomServer/node(of:in:)`` says which node holds one): a room's first
/// local join tells, after ``roomCreated(room:)`` and that join, of those already there; its ``roomClosed(room:)``
/// ends what this node says of the room. Another node's participant leaves with ``Departure/left`` (it left, was
/// evicted or its room closed there), or ``Departure/evicted`` when its node died and was swept.
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
