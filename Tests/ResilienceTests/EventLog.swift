import JSONRPC
import RoomClient
import SignalingSupport
import TestSupport

/// The client-side room event (RoomServer has its own `RoomEvent`).
typealias ClientEvent = RoomEvent

/// Every event of a room client, recorded from its ``RoomClient/events``.
final class EventLog: Sendable {
    private let events: Arrivals<RoomEvent>

    init(_ client: RoomClient) { events = Arrivals("room events", of: client.events) }

    var all: [RoomEvent] { events.all }

    func wait(for what: String, _ predicate: @escaping @Sendable (RoomEvent) -> Bool) async throws {
        try await events.first(what, where: predicate)
    }
}
