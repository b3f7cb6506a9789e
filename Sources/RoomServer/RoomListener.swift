/// The WebSocket side of a ``RoomServer`` started with ``RoomServer/start(_:)``.
final class RoomListener: Sendable {}
