import ArgumentParser
import RoomServer

/// The `RoomServerLimits` (DESIGN §6) and the message size, as options; defaults are the library's.
struct LimitOptions: ParsableArguments {
    @Option(help: "Rooms that may exist at once; a join creating one more gets error 204. (default: no limit)")
    var maxRooms: Int?

    @Option(help: "Participants per room; one more gets error 201. (default: no limit)")
    var maxParticipantsPerRoom: Int?

    @Option(help: "Client ICE candidates one session may queue for endpoints not created yet (then 303).")
    var maxQueuedCandidates = RoomServerLimits().maxQueuedCandidates

    @Option(help: "Notifications queued for one session before it is closed with 1008.")
    var maxQueuedNotifications = RoomServerLimits().maxQueuedNotifications

    @Option(help: """
        Room requests per second and session; more get -32000, twice as many close with 1008. (default: no limit)
        """)
    var maxRequestsPerSecond: Int?

    @Option(name: .customLong("max-connections-per-ip"),
            help: "Open connections from one IP address; one more upgrade gets HTTP 429. (default: no limit)")
    var maxConnectionsPerIP: Int?

    @Option(help: "The largest inbound message, in bytes; bigger ones close the socket with 1009.")
    var maxMessageSize = RoomServer.Configuration().maxMessageSize

    func validate() throws {
        for (name, value) in [("--max-rooms", maxRooms), ("--max-participants-per-room", maxParticipantsPerRoom),
                              ("--max-queued-candidates", maxQueuedCandidates),
                              ("--max-queued-notifications", maxQueuedNotifications),
                              ("--max-requests-per-second", maxRequestsPerSecond),
                              ("--max-connections-per-ip", maxConnectionsPerIP),
                              ("--max-message-size", maxMessageSize)] {
            if let value, value < 1 { throw ValidationError("\(name) must be 1 or more") }
        }
    }

    var roomServerLimits: RoomServerLimits {
        RoomServerLimits(maxRooms: maxRooms, maxParticipantsPerRoom: maxParticipantsPerRoom,
                         maxQueuedCandidates: maxQueuedCandidates, maxQueuedNotifications: maxQueuedNotifications,
                         maxRequestsPerSecond: maxRequestsPerSecond, maxConnectionsPerIP: maxConnectionsPerIP)
    }
}
