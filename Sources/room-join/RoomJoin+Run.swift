import CLISupport
import ArgumentParser
import Dispatch
import JSONRPC
import RoomClient
import RoomProtocol

extension RoomJoin {
    var output: Output { Output(tool: "room-join", json: json) }

    func run() async throws {
        var media = Media()
        var configuration = RoomClient.Configuration(connection.clientConfiguration(tool: "room-join"))
        configuration.failoverURLs = Array(urls.dropFirst())
        // After a rejoin, what was published and subscribed is renegotiated with fresh offers
        // (docs/architecture.md#room-recovery).
        if publish || receiveAll || !receive.isEmpty { configuration.offerProvider = media.offerProvider }
        let client = RoomClient(room: Room(username: user, roomName: room, url: url), configuration: configuration)
        let steps = Steps(client.events)
        // Before anything else: Dispatch registers the signal source asynchronously, and a SIGINT that came after
        // SIG_IGN but before the registration was lost (room-join then never left).
        let interrupt = steps.catchInterrupt()
        defer { interrupt.cancel() }
        // One iterator for the whole run: the connection's events are read before joining, the rest in the loop.
        var pending = steps.stream.makeAsyncIterator()
        try await connect(client)
        try await learnServer(client)
        try await reportConnection(&pending)
        try await join(client)
        let watch = try await SharedObjectWatch.start(sharedObjects, client: client, output: output)
        defer { watch?.stop() }
        if isInteractive { steps.readStandardInput() }
        let presence = Presence(users: waitFor, count: expectPeers)
        var acted = false
        if presence.isSatisfied(by: client.peers) {
            try await act(client, steps, &media)
            acted = true
        } else {
            steps.after(waitTimeout, .waitExpired)
        }
        while let step = await pending.next() {
            switch step {
            case .event(let event):
                if !event.isSharedObjectNotification { output.report(Report(event)) }
                try checkEnd(event)
                if !acted, presence.isSatisfied(by: client.peers) {
                    try await act(client, steps, &media)
                    acted = true
                } else if acted {
                    try await follow(event, client, &media)
                }
            case .waitExpired where !acted:
                try end("timeout", "timed out waiting for \(presence.missing(from: client.peers))")
            case .waitExpired:
                break
            case .durationElapsed:
                try await leave(client)
                return
            case .interrupted:
                try await leave(client)
                throw ExitCode(130)
            case .eventsEnded:
                try end("error", "room events ended")
            case .input(let line):
                if await watch?.perform(line, output) == true { continue }
                if try await perform(line, client) { return }
            case .inputEnded:
                try await leave(client)
                return
            }
        }
    }

    private func connect(_ client: RoomClient) async throws {
        do {
            try await client.connect()
        } catch {
            output.error("cannot connect to \(url): \(Problem.connectFailure(error, url: url))")
            throw ExitCode(3)
        }
    }

    /// Reports the connection's opening (connecting, connected), which `connect` published before it returned, so
    /// that it comes before `joined`, as it happened: the run loop would read it only after joining.
    private func reportConnection(_ pending: inout AsyncStream<Step>.Iterator) async throws {
        while let step = await pending.next() {
            switch step {
            case .event(let event):
                output.report(Report(event))
                try checkEnd(event)
                if case .connectionStateChanged(.connected) = event { return }
            case .eventsEnded:
                try end("error", "room events ended")
            case .waitExpired, .durationElapsed, .interrupted, .input, .inputEnded:
                break  // (none is started before joining)
            }
        }
    }

    private func join(_ client: RoomClient) async throws {
        do {
            output.report(.joined(room: room, user: user, peers: try await client.join()))
        } catch {
            let (message, code) = Self.joinFailure(error)
            output.error(message)
            throw ExitCode(code)
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
        try await call("send the customRequest") {
            for json in custom { try await sendCustom(try Self.customParams(json), client) }
        }
        if let duration { steps.after(duration, .durationElapsed) }
    }

    func leave(_ client: RoomClient) async throws {
        try await call("leave the room") { try await client.leave() }
        output.report(.left(room: room))
    }

    /// Runs one room call; a failure is reported as "cannot `what`" and exits 5.
    func call(_ what: String, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            try end("error", "cannot \(what): \(Problem.describe(error))")
        }
    }

    /// Reports `problem`, then `left` for `reason` (JSON only: the readable output has said it), and exits 5.
    private func end(_ reason: String, _ problem: String) throws -> Never {
        output.error(problem)
        output.report(Report(event: "left", fields: ["reason": .string(reason), "room": .string(room)]))
        throw ExitCode(5)
    }

    /// Exits 6 when `event` ends the stay in the room (its report was `left`), 5 when the connection ended.
    private func checkEnd(_ event: RoomEvent) throws {
        switch event {
        case .participantEvicted, .roomClosed:
            throw ExitCode(6)
        case .connectionStateChanged(.disconnected(let end)):
            try self.end("disconnected", "connection ended: \(end.map { Problem.connectionEnded($0, url: url) } ?? "closed")")
        default:
            break
        }
    }
}
