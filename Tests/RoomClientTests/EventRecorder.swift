import JSONRPC
import RoomClient
import SignalingSupport
import TestSupport

/// Records a ``RoomClient``'s events from the moment it is created, for tests that wait for them with a deadline.
/// Room events and connection-state events are kept apart: the latter come from another task, so their order
/// relative to room events is not specified.
final class EventRecorder: Sendable {
    private let recorded = LockedValue<(room: [RoomEvent], connection: [ConnectionState])>(([], []))
    private let consumer: Task<Void, Never>

    init(_ client: RoomClient) {
        let events = client.events
        consumer = Task { [recorded] in
            do {
                for try await event in events {
                    recorded.withLock { r in
                        if case .connectionStateChanged(let state) = event {
                            r.connection.append(state)
                        } else {
                            r.room.append(event)
                        }
                    }
                }
            } catch {}
        }
    }

    deinit { consumer.cancel() }

    /// The room events so far.
    var roomEvents: [RoomEvent] { recorded.withLock { $0.room } }

    /// The connection states so far.
    var connectionStates: [ConnectionState] { recorded.withLock { $0.connection } }

    /// Waits until `count` room events arrived, and returns them all.
    @discardableResult
    func waitForRoomEvents(_ count: Int, timeout: Duration = .seconds(10)) async throws -> [RoomEvent] {
        try await waitUntil("\(count) room events", timeout: timeout) { [recorded] in
            recorded.withLock { $0.room.count >= count }
        }
        return roomEvents
    }

    /// Waits until the connection state `state` was reported.
    func waitForConnectionState(_ state: ConnectionState, timeout: Duration = .seconds(10)) async throws {
        try await waitUntil("connection state \(state)", timeout: timeout) { [recorded] in
            recorded.withLock { $0.connection.contains(state) }
        }
    }
}
