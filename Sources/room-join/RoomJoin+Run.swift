import ArgumentParser
import JSONRPC
import RoomClient
import RoomProtocol

extension RoomJoin {
    func run() async throws {
        let client = RoomClient(room: Room(username: user, roomName: room, url: url),
                                configuration: .init(requestTimeout: .milliseconds(Int(timeout * 1000))))
        let steps = Steps(client.events)
        try await connect(client)
        try await join(client)
        let presence = Presence(users: waitFor, count: expectPeers)
        var acted = false
        var media = Media()
        if presence.isSatisfied(by: client.peers) {
            try await act(client, steps, &media)
            acted = true
        } else {
            steps.after(waitTimeout, .waitExpired)
        }
        for await step in steps.stream {
            switch step {
            case .event(let event):
                Output.line(EventText.line(for: event))
                try Self.checkEnd(event)
                if !acted, presence.isSatisfied(by: client.peers) {
                    try await act(client, steps, &media)
                    acted = true
                } else if acted {
                    try await follow(event, client, &media)
                }
            case .waitExpired where !acted:
                Output.error("timed out waiting for \(presence.missing(from: client.peers))")
                throw ExitCode(5)
            case .waitExpired:
                break
            case .durationElapsed:
                try await leave(client)
                return
            case .eventsEnded:
                Output.error("room events ended")
                throw ExitCode(5)
            }
        }
    }

    private func connect(_ client: RoomClient) async throws {
        do {
            try await client.connect()
        } catch {
            if case RPCError.connectionClosed(let end?) = error {
                Output.error("cannot connect to \(url): \(end.reason)")
            } else {
                Output.error("cannot connect to \(url): \(error)")
            }
            throw ExitCode(3)
        }
    }

    private func join(_ client: RoomClient) async throws {
        do {
            let peers = try await client.join()
            Output.line("joined \(room) as \(user); participants: "
                        + (peers.isEmpty ? "none" : peers.map(\.description).joined(separator: ", ")))
        } catch let error as RoomError {
            Output.error("join refused: \(error)")
            throw ExitCode(4)
        } catch {
            Output.error("join failed: \(error)")
            throw ExitCode(5)
        }
    }

    /// Does what the options ask once the awaited participants are present, then starts `--duration`.
    private func act(_ client: RoomClient, _ steps: Steps, _ media: inout Media) async throws {
        if publish { try await publish(client, media) }
        for peer in client.peers { try await receiveIfWanted(peer, client, &media) }
        try await call("send the message") {
            for text in message { try await client.sendMessage(text) }
            for message in privateMessages { try await client.sendPrivateMessage(message.text, to: message.user) }
        }
        if let duration { steps.after(duration, .durationElapsed) }
    }

    private func leave(_ client: RoomClient) async throws {
        try await call("leave the room") { try await client.leave() }
        Output.line("left \(room)")
    }

    /// Runs one room call; a failure is printed as "cannot `what`" and exits 5.
    func call(_ what: String, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            Output.error("cannot \(what): \(error)")
            throw ExitCode(5)
        }
    }

    /// Exits 6 when `event` ends the stay in the room, 5 when the connection ended.
    private static func checkEnd(_ event: RoomEvent) throws {
        switch event {
        case .participantEvicted, .roomClosed:
            throw ExitCode(6)
        case .connectionStateChanged(.disconnected(let end)):
            Output.error("connection ended: \(end.map(\.description) ?? "closed")")
            throw ExitCode(5)
        default:
            break
        }
    }
}
