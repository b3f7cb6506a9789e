/// The server → client notifications of the Kurento Room protocol (docs/wire-protocol.md#room-notifications), plus our
/// extension ``privateMessage``. The raw values are the wire names.
///
/// The demo-only `custonNotification` (sic) of docs/wire-protocol.md#room-notifications is not part of the protocol and
/// is not listed.
public enum RoomNotificationMethod: String, Sendable, Hashable, CaseIterable {
    /// Someone joined: ``ParticipantJoinedNotification``, sent to the existing participants.
    case participantJoined
    /// Someone started publishing: ``ParticipantPublishedNotification``, sent to all but the publisher.
    case participantPublished
    /// Someone stopped publishing: ``ParticipantUnpublishedNotification`` (`name`), sent to all but the publisher.
    case participantUnpublished
    /// Someone left or was evicted: ``ParticipantLeftNotification`` (`name`), sent to those remaining.
    case participantLeft
    /// The recipient itself was evicted; empty params.
    case participantEvicted
    /// One server ICE candidate for one of the recipient's endpoints: ``RoomIceCandidate``.
    case iceCandidate
    /// A chat message: ``RoomMessageNotification``, sent to everyone including the sender.
    case sendMessage
    /// A media failure: ``MediaErrorNotification``.
    case mediaError
    /// The application closed the room: ``RoomClosedNotification``, sent to everyone.
    case roomClosed
    /// Extension: a private message (``PrivateMessageNotification``), sent to the target only.
    case privateMessage

    /// Whether the notification is ours rather than Kurento's.
    public var isExtension: Bool { self == .privateMessage }
}
