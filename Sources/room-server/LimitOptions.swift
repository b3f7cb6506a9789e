import ArgumentParser
import RoomServer

/// The `RoomServerLimits` (docs/wire-protocol.md#limits) and the message size, as options. Defaults are the library's,
/// except that a process facing the network limits each session to 100 requests per second (the library leaves that to
/// embedders).
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
        Room requests per second and session; more get -32000, twice as many close with 1008; 0: no limit.
        """)
    var maxRequestsPerSecond = 100

    @Option(name: .customLong("max-connections-per-ip"),
            help: "Open connections from one IP address; one more upgrade gets HTTP 429. (default: no limit)")
    var maxConnectionsPerIP: Int?

    @Option(name: .customLong("max-inflight"),
            help: "Requests one connection may have running at once; past that the server stops reading from it.")
    var maxInFlight = RoomServerLimits().maxInFlightPerConnection

    @Option(help: "Seconds a request's handler may run before it is cancelled and answered with -32001; 0: no limit.")
    var handlerTimeout = 30.0

    @Option(help: "The largest inbound message, in bytes; bigger ones close the socket with 1009.")
    var maxMessageSize = RoomServer.Configuration().maxMessageSize

    @Option(help: ArgumentHelp(
        "The largest chat message (sendMessage, sendPrivateMessage) and shared-object message (sharedObject.send), "
            + "in bytes; bigger ones get 999 (chat) or 1104 (shared objects) and reach no one."))
    var maxChatMessageBytes = RoomServerLimits().maxChatMessageBytes

    @Option(help: ArgumentHelp(
        "Chat fan-out one session may cause per second, in bytes (a message's bytes times its recipients); past it "
            + "its chat gets -32000 until the second ends, and nobody else is touched; 0: no limit."))
    var maxBroadcastBytesPerSecond = RoomServerLimits().maxBroadcastBytesPerSecond ?? 0

    func validate() throws {
        for (name, value) in [("--max-rooms", maxRooms), ("--max-participants-per-room", maxParticipantsPerRoom),
                              ("--max-queued-candidates", maxQueuedCandidates),
                              ("--max-queued-notifications", maxQueuedNotifications),
                              ("--max-inflight", maxInFlight),
                              ("--max-connections-per-ip", maxConnectionsPerIP),
                              ("--max-message-size", maxMessageSize),
                              ("--max-chat-message-bytes", maxChatMessageBytes)] {
            if let value, value < 1 { throw ValidationError("\(name) must be 1 or more") }
        }
        if maxRequestsPerSecond < 0 { throw ValidationError("--max-requests-per-second must be 0 or more") }
        if maxBroadcastBytesPerSecond < 0 { throw ValidationError("--max-broadcast-bytes-per-second must be 0 or more") }
        if !(handlerTimeout >= 0) { throw ValidationError("--handler-timeout must be 0 or more") }
    }

    var roomServerLimits: RoomServerLimits {
        RoomServerLimits(maxRooms: maxRooms, maxParticipantsPerRoom: maxParticipantsPerRoom,
                         maxQueuedCandidates: maxQueuedCandidates, maxQueuedNotifications: maxQueuedNotifications,
                         maxRequestsPerSecond: maxRequestsPerSecond == 0 ? nil : maxRequestsPerSecond,
                         maxConnectionsPerIP: maxConnectionsPerIP, maxInFlightPerConnection: maxInFlight,
                         handlerTimeout: handlerTimeout == 0 ? nil : .milliseconds(Int((handlerTimeout * 1000).rounded())),
                         maxChatMessageBytes: maxChatMessageBytes,
                         maxBroadcastBytesPerSecond: maxBroadcastBytesPerSecond == 0 ? nil : maxBroadcastBytesPerSecond)
    }
}
