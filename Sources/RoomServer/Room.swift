/// One room's state in the registry: its participants in join order.
struct Room: Sendable {
    let name: String
    private(set) var participants: [String: Participant] = [:]
    private(set) var order: [String] = []
    /// Whether ``RoomEvent/roomCreated(room:)`` went out (a first join the authorizer refused never shows).
    var announced = false

    init(name: String) { self.name = name }

    var isEmpty: Bool { participants.isEmpty }

    /// The joined participants, in join order.
    var joined: [Participant] {
        order.compactMap { participants[$0] }.filter { $0.phase == .joined }
    }

    subscript(user: String) -> Participant? {
        get { participants[user] }
        set {
            if participants[user] == nil, newValue != nil { order.append(user) }
            if newValue == nil { order.removeAll { $0 == user } }
            participants[user] = newValue
        }
    }
}
