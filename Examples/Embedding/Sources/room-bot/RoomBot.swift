import DemoProtocol
import Foundation
import Logging
import PeerManager
import RoomClient
import ServiceLifecycle

/// A room bot: `room-bot <ws-url> <room> <user>` joins `room` as `bot` (`BOT_NAME`), waits for `user`, publishes,
/// subscribes to everyone (later publishers too), answers each chat "ping" with "pong", and leaves the room on SIGINT
/// or SIGTERM (exit 0). The bearer token is `SIGNALING_TOKEN` (default `demo-token`). It says what it does on stdout,
/// one line each.
@main
struct RoomBot: Service {
    let client: RoomClient
    let user: String

    static func main() async throws {
        let arguments = DemoProtocol.arguments(count: 3, usage: "room-bot <ws-url> <room> <user-to-wait-for>")
        let (url, room, user) = (arguments[0], arguments[1], arguments[2])
        let environment = ProcessInfo.processInfo.environment
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "room-bot")
        logger.logLevel = .warning
        let client = RoomClient(
            room: Room(username: environment["BOT_NAME"] ?? "bot", roomName: room, url: url),
            configuration: .init(authToken: environment["SIGNALING_TOKEN"] ?? "demo-token", logger: logger))
        let group = ServiceGroup(configuration: .init(
            services: [RoomBot(client: client, user: user)], gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        try await group.run()
    }

    func run() async throws {
        let events = client.events  // subscribed before joining: no chat line is missed
        try await client.join()
        say("joined \(client.room.name)")
        try? await cancelWhenGracefulShutdown {  // SIGINT or SIGTERM cancels this block, then the bot leaves
            try await client.waitForParticipant(named: user, timeout: .seconds(60))
            say("\(user) is here")
            let media = PeerManager()
            try await client.publish(using: media)
            say("published")
            try await client.subscribeToEveryone(using: media)
            say("subscribed to everyone")
            for try await event in events {
                switch event {
                case .message("ping", let from) where from != client.room.username:
                    try await client.sendMessage("pong")
                    say("pong to \(from)")
                case .participantPublished(let peer):
                    say("\(peer.identifier) publishes")
                default:
                    break
                }
            }
        }
        try await client.leave()
        await client.disconnect()
        say("left")
    }

    /// One line on stdout, written at once (stdout is a pipe under a test or a supervisor).
    func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
