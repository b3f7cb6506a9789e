import ArgumentParser
import CLISupport
import Dispatch
import JSONRPC
import JSONRPCWebSocket
import RoomClient
import RoomProtocol

/// How the stay in the room ended.
enum Ending: Sendable {
    /// The run itself ended, with this exit code (0 after a clean leave).
    case exit(Int32)
    /// SIGINT or SIGTERM arrived (``/CLISupport/ExitSignals``).
    case signal(Int32)
}

extension RoomJoin {
    var output: Output { Output(tool: "room-join", json: json) }

    func run() async throws {
        // Before anything else: a signal that came before the sources are registered would be lost (and room-join
        // then never left).
        let (signals, signalled) = AsyncStream<Int32>.makeStream()
        let sources = ExitSignals.catching { signalled.yield($0) }
        defer { for source in sources { source.cancel() } }
        let media = Media()
        var configuration = RoomClient.Configuration(connection.clientConfiguration(tool: "room-join"))
        configuration.failoverURLs = Array(urls.dropFirst())
        // A call after the connection ended for good (1008, 1009) must fail, not open a fresh session that never
        // joined: room-join connects itself.
        configuration.autoConnect = false
        // After a rejoin, what was published and subscribed is renegotiated with fresh offers
        // (docs/architecture.md#room-recovery), and each restored endpoint is printed.
        if publish || receiveAll || !receive.isEmpty {
            let output = output
            configuration.offerProvider = media.offerProvider(user: user) { output.report(.restored($0)) }
        }
        let client = RoomClient(room: Room(username: user, roomName: room, url: url), configuration: configuration)
        let steps = Steps(client.events)
        // A signal ends the stay wherever it is, even in a call waiting for a reconnection.
        let ending = await withTaskGroup(of: Ending?.self) { group in
            group.addTask { await self.stay(client, steps, media) }
            group.addTask { await signals.first { _ in true }.map(Ending.signal) }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .exit(5)
        }
        let code = await finish(client, ending)
        if code != 0 { throw ExitCode(code) }
    }

    /// Connects, joins, acts and follows the room until the run ends; returns how it ended.
    private func stay(_ client: RoomClient, _ steps: Steps, _ media: Media) async -> Ending {
        do {
            var media = media
            try await follow(client, steps, &media)
            return .exit(0)
        } catch let exit as ExitCode {
            return .exit(exit.rawValue)
        } catch {
            output.error("\(error)")
            return .exit(5)
        }
    }

    private func follow(_ client: RoomClient, _ steps: Steps, _ media: inout Media) async throws {
        // One iterator for the whole run: the connection's events are read before joining, the rest in the loop.
        var pending = steps.stream.makeAsyncIterator()
        try await connect(client)
        try await learnServer(client)
        try await reportConnection(&pending)
        media.announce(try await join(client))
        let watch = try await SharedObjectWatch.start(sharedObjects, client: client, output: output)
        defer { watch?.stop() }
        if isInteractive { steps.readStandardInput() }
        let presence = ParticipantPresence(users: waitFor, count: expectPeers)
        var acted = false
        var chat = ChatEchoes()
        if presence.isSatisfied(by: client.peers) {
            try await act(client, steps, media)
            chat.sent += message.count
            acted = true
        } else {
            steps.after(waitTimeout, .waitExpired)
        }
        while let step = await pending.next() {
            switch step {
            case .event(let event):
                output.report(Report(event))
                media.note(event)
                try checkEnd(event)
                if case .message(_, let sender) = event, sender == user { chat.echoed += 1 }
                if chat.isLeaving, chat.isSettled {
                    try await leave(client)
                    return
                }
                if !acted, presence.isSatisfied(by: client.peers) {
                    try await act(client, steps, media)
                    chat.sent += message.count
                    acted = true
                } else if acted {
                    try await follow(event, client, media)
                }
            case .waitExpired where !acted:
                try end("timeout", "timed out waiting for \(presence.missing(from: client.peers))")
            case .waitExpired:
                break
            case .durationElapsed:
                try await leave(client)
                return
            case .eventsEnded:
                try end("error", "room events ended")
            case .input where chat.isLeaving:
                break  // (typed after /leave)
            case .input(let line):
                // Lines read before the server ended the connection for good are not sent (there is no session).
                try checkConnection(client)
                if line.split(separator: " ") == ["/leave"], !chat.isSettled {
                    chat.leave(after: steps)
                    continue
                }
                if await watch?.perform(line, output) == true { continue }
                if !line.isEmpty, !line.hasPrefix("/") { chat.sent += 1 }
                if try await perform(line, client) { return }
            case .inputEnded where !chat.isSettled:
                chat.leave(after: steps)
            case .inputEnded, .echoWaitExpired:
                try await leave(client)
                return
            }
        }
    }

    private func connect(_ client: RoomClient) async throws {
        do {
            try await client.connect()
        } catch let error as RPCError where error.isAuthorizationRefusal {
            // The server refused the token (HTTP 401/403, close 4401/4403): final, nothing dials again.
            output.error("cannot connect to \(url): \(Problem.describe(error))")
            throw ExitCode(4)
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
            case .waitExpired, .durationElapsed, .input, .inputEnded, .echoWaitExpired:
                break  // (none is started before joining)
            }
        }
    }

    /// Joins and prints `joined`; returns the participants it listed.
    private func join(_ client: RoomClient) async throws -> [Peer] {
        do {
            let peers = try await client.join()
            output.report(.joined(room: room, user: user, peers: peers))
            return peers
        } catch {
            let (message, code) = Self.joinFailure(error)
            output.error(message)
            throw ExitCode(code)
        }
    }

    /// Does what the options ask once the awaited participants are present, then starts `--duration`.
    private func act(_ client: RoomClient, _ steps: Steps, _ media: Media) async throws {
        if publish { try await publish(client, media) }
        for peer in client.peers { try await receiveIfWanted(peer, client, media) }
        try await call("send the message") {
            for text in message where !refusedLocally(text) { try await client.sendMessage(text) }
            for message in privateMessages where !refusedLocally(message.text, to: message.user) {
                try await client.sendPrivateMessage(message.text, to: message.user)
            }
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

    /// Every exit goes through here: leaves the room when still in it, ends the session (`closeSession`) and closes
    /// the connection, so that no participant or session is left behind for the server's reconnection window; then
    /// returns the exit code. Without a connection (reconnecting, or ended) nothing is sent and it returns at once.
    private func finish(_ client: RoomClient, _ ending: Ending) async -> Int32 {
        let connected = client.jsonRPCClient.isConnected
        switch ending {
        case .exit(let code):
            // The reason was reported (`left`): leave quietly.
            if client.isJoined, connected { try? await client.leave() }
            await client.jsonRPCClient.closeSession()
            return code
        case .signal(let number):
            if client.isJoined, connected {
                do {
                    try await client.leave()
                    output.report(.left(room: room))
                } catch {
                    output.error("cannot leave the room: \(error)")
                    output.report(Report(event: "left", fields: ["reason": "interrupted", "room": .string(room)]))
                }
            } else if client.isJoined {
                output.error("interrupted while not connected: exiting without leaving (the server ends the session "
                                + "when its reconnection window passes)")
                output.report(Report(event: "left", fields: ["reason": "interrupted", "room": .string(room)]))
            }
            await client.jsonRPCClient.closeSession()
            return ExitSignals.exitCode(for: number)
        }
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
            try connectionEnded(end)
        default:
            break
        }
    }

    /// Exits 5 when the connection has ended for good, even though its event is still queued behind input lines.
    private func checkConnection(_ client: RoomClient) throws {
        if case .disconnected(let end) = client.connectionState { try connectionEnded(end) }
    }

    /// The connection ended for good (closed by the server with a code that forbids reconnecting, or the reconnect
    /// budget was spent): says so in one line and exits 5. No new session is opened (`autoConnect` is off).
    private func connectionEnded(_ end: ConnectionEnd?) throws -> Never {
        if let end, end.isAuthorizationRefusal {
            output.error(Problem.refusal(end))
            output.report(Report(event: "left", fields: ["reason": "refused", "room": .string(room)]))
            throw ExitCode(4)
        }
        let hint = switch end?.code {
        case 1008: ": the server's policy refused this session (e.g. too many requests); not reconnecting"
        case 1009: ": a message was over the server's size limit; not reconnecting"
        default: ""
        }
        try self.end("disconnected", "connection ended: \(end.map { Problem.connectionEnded($0, url: url) } ?? "closed")\(hint)")
    }
}