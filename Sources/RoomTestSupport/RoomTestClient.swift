public import RoomClient
public import TestSupport

/// The core of every "user over a room server" helper of the room tests: a ``RoomClient`` for `name` in `room` at
/// `url`, and every event it received from the start, in arrival order, as ``Arrivals`` (read one at a time, or
/// waited on, with a deadline; a wait is woken by the event itself). The suites' users (`RoomUser`, `Member`,
/// `RoomTestClient.metered`) add what they measure or negotiate on top of it.
public final class RoomTestClient: Sendable {
    /// The user's name.
    public let name: String
    /// The client.
    public let client: RoomClient
    /// The events received, those `keeping` kept.
    public let events: Arrivals<RoomEvent>

    /// A client for `name` in `room` at `url` (not connected yet); `keeping` chooses the events collected (all of
    /// them by default).
    public init(
        _ name: String, room: String, url: String, configuration: RoomClient.Configuration = .init(),
        keeping: @escaping @Sendable (RoomEvent) -> Bool = { _ in true }
    ) {
        self.name = name
        client = RoomClient(room: Room(username: name, roomName: room, url: url), configuration: configuration)
        events = Arrivals("\(name)'s room events", of: client.events.filter(keeping))
    }

    /// Connects and joins; returns the participants already there.
    public func join() async throws -> [Peer] {
        try await client.connect()
        return try await client.join()
    }

    /// Waits until an event matching `matches` has arrived (at any time so far), without reading anything.
    public func waitForEvent(
        _ what: String, timeout: Duration = .seconds(10), _ matches: @escaping @Sendable (RoomEvent) -> Bool
    ) async throws {
        try await events.first("\(name): \(what)", timeout: timeout, where: matches)
    }
}
