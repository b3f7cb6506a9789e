import ArgumentParser
import CLISupport
import Foundation
import RoomClient
import RoomProtocol
import RoomServer
import SDP

/// A publisher and a receiver in one process, each with its own ``RoomClient`` and ``PeerManager``, doing the
/// whole SDP offer/answer and trickle ICE flow through a room: `room-publisher-receiver [ws-url]`.
///
/// Without a URL it starts an embedded ``RoomServer`` (simulated media) on a free local port. The publisher
/// publishes (``RoomClient/publish(using:loopback:)``), the receiver subscribes to it
/// (``RoomClient/subscribe(to:using:)``): RoomClient makes the offer, calls the room and applies the answer, then sends
/// one local host candidate on 127.0.0.1 (made up: there is no real media) and applies the server's candidates.
/// Exits 0 once both have reached the stable signaling state and left; any failure exits 1.
@main
struct PublisherReceiver: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "room-publisher-receiver",
        abstract: "A publisher and a receiver negotiating SDP and trickle ICE through a room.",
        discussion: """
            Each side is a RoomClient with its own PeerManager: the publisher publishes, the receiver subscribes to \
            it; each applies the answer, sends one made-up host candidate and applies the server's. Without a URL \
            it starts a room server (simulated media) in this process.

            Exit codes: 0 both reached the stable signaling state and left; 1 a step failed (the reason is on \
            stderr); 2 usage error.
            """
    )

    @Argument(help: "A room server's URL, e.g. ws://127.0.0.1:41234/room; none starts one in this process.")
    var url: String?

    static func main() async { await mainExitingTwoOnUsageErrors() }

    func run() async throws {
        do {
            try await Self.run(url: url)
        } catch {
            FileHandle.standardError.write(Data("room-publisher-receiver: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }

    static func run(url given: String?) async throws {
        var server: RoomServer?
        let url: String
        if let given {
            url = given
        } else {
            server = try await RoomServer.start(.init())
            url = server?.url ?? ""
            show("server: embedded RoomServer (simulated media) on \(url)")
        }
        var publisher = MediaParticipant("publisher", room: "media-demo", url: url)
        var receiver = MediaParticipant("receiver", room: "media-demo", url: url)
        try await publisher.join()
        try await receiver.join()

        try await publisher.negotiate(.publisher, candidatePort: 40000) { client, media in
            try await client.publish(using: media)
        }
        // The receiver reads up to the publisher's barrier message: by then it knows the stream.
        try await receiver.read(until: "publisher negotiated", from: "publisher")
        guard let stream = receiver.client.peer(withIdentifier: "publisher"), stream.isPublishing else {
            throw ExampleError(description: "the receiver does not know the publisher's stream")
        }
        try await receiver.negotiate(.subscriber(to: "publisher"), candidatePort: 40001) { client, media in
            try await client.subscribe(to: stream, using: media)
        }

        try await receiver.leave()
        try await publisher.leave()
        await server?.shutdown()
        show("done")
    }
}

/// Writes `line` to stdout at once, even when stdout is a pipe.
func show(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// A step of the flow that did not go as expected.
struct ExampleError: Error, CustomStringConvertible {
    var description: String
}
