import JSONRPC
import RoomClient
import TestSupport

/// The client-side room event (RoomServer has its own `RoomEvent`).
typealias ClientEvent = RoomEvent

/// Every event of a room client, recorded from its ``RoomClient/events``.
final class EventLog: Sendable {
    private let events = LockedBox<[RoomEvent]>([])
    private let task: Task<Void, Never>

    init(_ client: RoomClient) {
        let events = self.events
        let subscription = client.events
        task = Task { do { for try await event in subscription { events.mutate { $0.append(event) } } } catch {} }
    }

    deinit { task.cancel() }

    var all: [RoomEvent] { events.value }

    func wait(for what: String, _ predicate: @escaping @Sendable (RoomEvent) -> Bool) async throws {
        try await waitUntil(what) { [events] in events.value.contains(where: predicate) }
    }
}

