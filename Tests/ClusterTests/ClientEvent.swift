import RoomClient

/// The client's room events (RoomServer has a `RoomEvent` of its own; this file sees only the client's).
typealias ClientEvent = RoomEvent
