import CoreMetrics
import JSONRPC

/// What one room counts towards the room gauges: its joined participants, and the endpoints the backend created.
struct RoomTally: Sendable, Hashable {
    var participants = 0
    var publishers = 0
    var subscriptions = 0

    /// Adds (`sign` 1) or takes away (-1) what `participant` counts.
    mutating func count(_ participant: Participant, _ sign: Int) {
        if participant.phase == .joined { participants += sign }
        publishers += sign * participant.endpoints.readyPublishers
        subscriptions += sign * participant.endpoints.readySubscriptions
    }
}

/// The gauges of the rooms this node holds (docs/operations.md#metrics): `signaling_rooms`,
/// `signaling_participants`, `signaling_publishers`, `signaling_subscriptions`. ``RoomTable`` moves them by the
/// difference each room write makes, under the registry's lock, so they follow the state exactly and cost nothing
/// when a write changes none of them (chat, candidates). Several servers in one process add up.
final class RoomGauges: Sendable {
    private let rooms: Meter
    private let participants: Meter
    private let publishers: Meter
    private let subscriptions: Meter

    /// The gauges, or `nil` when `metrics` is disabled.
    init?(_ metrics: SignalingMetrics) {
        guard let rooms = metrics.gauge(SignalingMetrics.Name.rooms),
              let participants = metrics.gauge(SignalingMetrics.Name.participants),
              let publishers = metrics.gauge(SignalingMetrics.Name.publishers),
              let subscriptions = metrics.gauge(SignalingMetrics.Name.subscriptions)
        else { return nil }
        self.rooms = rooms
        self.participants = participants
        self.publishers = publishers
        self.subscriptions = subscriptions
    }

    /// What one room counts towards the gauges (nothing for no room): read before and after a change, so that
    /// the room need not be kept.
    struct Reading: Sendable, Hashable {
        var announced = false
        var tally = RoomTally()

        init(_ room: Room?) {
            guard let room else { return }
            announced = room.announced
            tally = room.tally
        }
    }

    /// A room changed from `old` to `new`.
    func changed(from old: Reading, to new: Reading) {
        guard old != new else { return }
        let announced = (new.announced ? 1 : 0) - (old.announced ? 1 : 0)
        Self.move(rooms, by: announced)
        Self.move(participants, by: new.tally.participants - old.tally.participants)
        Self.move(publishers, by: new.tally.publishers - old.tally.publishers)
        Self.move(subscriptions, by: new.tally.subscriptions - old.tally.subscriptions)
    }

    private static func move(_ meter: Meter, by delta: Int) {
        if delta > 0 { meter.increment(by: Double(delta)) } else if delta < 0 { meter.decrement(by: Double(-delta)) }
    }
}
