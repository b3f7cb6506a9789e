import JSONRPC
import RoomClient
import SignalingSupport
import TestSupport

/// The client-side room event (RoomServer has its own `RoomEvent`).
typealias ClientEvent = RoomEvent

/// Every event of a room client, recorded from its ``RoomClient/events``.
final class EventLog: Sendable {
    private let events = LockedValue<[RoomEvent]>([])
    private let task: Task<Void, Never>

    init(_ client: RoomClient) {
        let events = self.events
        let subscription = client.events
        task = Task { do { for try await event in subscription { events.withLock { $0.append(event) } } } catch {} }
    }

    deinit { task.cancel() }

    var all: [RoomEvent] { events.withLock { $0 } }

    func wait(for what: String, _ predicate: @escaping @Sendable (RoomEvent) -> Bool) async throws {
        try await waitUntil(what) { [events] in events.withLock { $0 }.contains(where: predicate) }
    }
}

