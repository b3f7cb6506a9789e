/// The registry's rooms by name. Every write of a room goes through ``subscript(_:)`` or ``removeValue(forKey:)``,
/// which move the room gauges (``RoomGauges``) by the difference it makes.
struct RoomTable: Sendable {
    private var storage: [String: Room] = [:]
    private let gauges: RoomGauges?

    init(gauges: RoomGauges?) { self.gauges = gauges }

    subscript(name: String) -> Room? {
        get { storage[name] }
        set {
            let old = if let newValue { storage.updateValue(newValue, forKey: name) } else { storage.removeValue(forKey: name) }
            gauges?.changed(from: old, to: newValue)
        }
    }

    /// Removes the room called `name` and returns it.
    mutating func removeValue(forKey name: String) -> Room? {
        let removed = storage.removeValue(forKey: name)
        if removed != nil { gauges?.changed(from: removed, to: nil) }
        return removed
    }

    /// Every room, by name.
    var all: [String: Room] { storage }
    var count: Int { storage.count }
    var keys: Dictionary<String, Room>.Keys { storage.keys }
    var values: Dictionary<String, Room>.Values { storage.values }
}
