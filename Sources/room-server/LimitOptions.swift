import ArgumentParser
import RoomServer

/// The `RoomServerLimits` (docs/wire-protocol.md#limits) and the message size, as options. Defaults are the library's,
/// except where the library leaves a cap to embedders: a process facing the network caps connections per IP address,
/// rooms, participants, trees, sinks per tree and requests per second (issue 30), each `0` for no limit.
struct LimitOptions: ParsableArguments {
    @Option(help: "Rooms that may exist at once; a join creating one more gets error 204; 0: no limit.")
    var maxRooms = 1000

    @Option(help: "Participants per room; one more gets error 201; 0: no limit.")
    var maxParticipantsPerRoom = 100

    @Option(help: "Trees that may exist at once (/tree); one more createTree gets Tree error 2; 0: no limit.")
    var maxTrees = 100

    @Option(help: "Sinks (viewers) per tree; one more addTreeSink gets Tree error 2; 0: no limit.")
    var maxSinksPerTree = 100

    @Option(help: "Client ICE candidates one session may queue for endpoints not created yet (then 303).")
    var maxQueuedCandidates = RoomServerLimits().maxQueuedCandidates

    @Option(help: "Notifications queued for one session before it is closed with 1008.")
    var maxQueuedNotifications = RoomServerLimits().maxQueuedNotifications

    @Option(help: """
        Room and Tree requests per second and session; more get -32000, twice as many close with 1008; 0: no limit.
        """)
    var maxRequestsPerSecond = 100

    @Option(name: .customLong("max-connections-per-ip"),
            help: "Open connections from one IP address; one more upgrade gets HTTP 429; 0: no limit.")
    var maxConnectionsPerIP = 100

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
        "Chat and shared-object fan-out one session may cause per second, in bytes (a message's or update's bytes "
            + "times its recipients), each counted apart; past it its chat (or its shared-object sets and sends) gets "
            + "-32000 until the second ends, and nobody else is touched; 0: no limit."))
    var maxBroadcastBytesPerSecond = RoomServerLimits().maxBroadcastBytesPerSecond ?? 0

    func validate() throws {
        for (name, value) in [("--max-queued-candidates", maxQueuedCandidates),
                              ("--max-queued-notifications", maxQueuedNotifications),
                              ("--max-inflight", maxInFlight),
                              ("--max-message-size", maxMessageSize),
                              ("--max-chat-message-bytes", maxChatMessageBytes)] where value < 1 {
            throw ValidationError("\(name) must be 1 or more")
        }
        for (name, value) in [("--max-rooms", maxRooms), ("--max-participants-per-room", maxParticipantsPerRoom),
                              ("--max-trees", maxTrees), ("--max-sinks-per-tree", maxSinksPerTree),
                              ("--max-connections-per-ip", maxConnectionsPerIP),
                              ("--max-requests-per-second", maxRequestsPerSecond),
                              ("--max-broadcast-bytes-per-second", maxBroadcastBytesPerSecond)] where value < 0 {
            throw ValidationError("\(name) must be 0 or more")
        }
        if !(handlerTimeout >= 0) { throw ValidationError("--handler-timeout must be 0 or more") }
    }

    var roomServerLimits: RoomServerLimits {
        RoomServerLimits(maxRooms: Self.cap(maxRooms), maxParticipantsPerRoom: Self.cap(maxParticipantsPerRoom),
                         maxQueuedCandidates: maxQueuedCandidates, maxQueuedNotifications: maxQueuedNotifications,
                         maxRequestsPerSecond: Self.cap(maxRequestsPerSecond), maxTrees: Self.cap(maxTrees),
                         maxSinksPerTree: Self.cap(maxSinksPerTree), maxConnectionsPerIP: Self.cap(maxConnectionsPerIP),
                         maxInFlightPerConnection: maxInFlight,
                         handlerTimeout: handlerTimeout == 0 ? nil : .milliseconds(Int((handlerTimeout * 1000).rounded())),
                         maxChatMessageBytes: maxChatMessageBytes,
                         maxBroadcastBytesPerSecond: Self.cap(maxBroadcastBytesPerSecond))
    }

    /// A cap as `RoomServerLimits` takes it: `0` on the command line is `nil`, no limit.
    private static func cap(_ value: Int) -> Int? { value == 0 ? nil : value }
}
