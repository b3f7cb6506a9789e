/// The registry's rooms by name. Every write of a room goes through ``withRoom(_:_:)`` or
/// ``removeValue(forKey:)``, which move the room gauges (``RoomGauges``) by the difference it makes.
struct RoomTable: Sendable {
    private var storage: [String: Room] = [:]
    private let gauges: RoomGauges?

    init(gauges: RoomGauges?) { self.gauges = gauges }

    subscript(name: String) -> Room? { storage[name] }

    /// Runs `body` on the room called `name` (`nil`: there is none) in place, and keeps what it leaves: a room, or
    /// `nil` for none (removed). The room is moved out of the table for the call, so `body` holds its only
    /// reference and changes it without copying its participants. The gauges move by the difference between the
    /// room before and after, once, when `body` returns or throws (what it changed before throwing is kept); they
    /// do not see the room leave the table meanwhile.
    mutating func withRoom<T, E: Error>(_ name: String, _ body: (inout Room?) throws(E) -> T) throws(E) -> T {
        let gauges = self.gauges
        return try Self.change(&storage[name], gauges: gauges, body)
    }

    /// ``withRoom(_:_:)`` for a room that exists: `nil`, without calling `body`, when there is none.
    mutating func withExisting<T, E: Error>(_ name: String, _ body: (inout Room) throws(E) -> T) throws(E) -> T? {
        try withRoom(name) { (room: inout Room?) throws(E) -> T? in
            guard room != nil else { return nil }
            return try body(&room!)
        }
    }

    private static func change<T, E: Error>(_ room: inout Room?, gauges: RoomGauges?,
                                            _ body: (inout Room?) throws(E) -> T) throws(E) -> T {
        let before = RoomGauges.Reading(room)
        defer { gauges?.changed(from: before, to: RoomGauges.Reading(room)) }
        return try body(&room)
    }

    /// Removes the room called `name` and returns it.
    mutating func removeValue(forKey name: String) -> Room? {
        let removed = storage.removeValue(forKey: name)
        if removed != nil { gauges?.changed(from: RoomGauges.Reading(removed), to: RoomGauges.Reading(nil)) }
        return removed
    }

    /// Every room, by name.
    var all: [String: Room] { storage }
    var count: Int { storage.count }
    var keys: Dictionary<String, Room>.Keys { storage.keys }
    var values: Dictionary<String, Room>.Values { storage.values }
}
