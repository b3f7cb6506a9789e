import ArgumentParser
import CLISupport
import Foundation
import JSONRPCWebSocket
import RoomServer
import SharedObjects

/// The Red5-style colour sync over shared objects: three clients connect to one object, `alice` sets `color`,
/// and `bob` and `carol` follow. `shared-color-sync [ws-url]`: without a URL it starts its own room server.
@main
struct SharedColorSync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shared-color-sync",
        abstract: "Three clients follow a colour set on one shared object.",
        discussion: """
            alice, bob and carol connect to the shared object 'color-sync'; alice sets 'color' to red, green and \
            blue, and every client prints each change it sees. Without a URL it starts a room server of its own.

            Exit codes: 0 all three agree; 1 they disagree, or a step failed (the reason is on stderr); 2 usage error.
            """
    )

    @Argument(help: "A room server's URL, e.g. ws://127.0.0.1:41234/room; none starts one in this process.")
    var url: String?

    static func main() async { await mainExitingTwoOnUsageErrors() }

    func run() async throws {
        do {
            try await sync()
        } catch let exit as ExitCode {
            throw exit
        } catch {
            FileHandle.standardError.write(Data("shared-color-sync: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }

    func sync() async throws {
        var server: RoomServer?
        let url: String
        if let given = self.url {
            url = given
        } else {
            let started = try await RoomServer.start(.init())
            server = started
            url = started.url
        }
        Self.show("server: \(url)")

        // Each user has its own connection and its own view of the object called "color-sync".
        let users = ["alice", "bob", "carol"]
        let clients = users.map { _ in JSONRPCClient(url: url) }
        let objects = clients.map { SharedObjectClient(client: $0).object("color-sync") }
        let (seen, seenContinuation) = AsyncStream<Int>.makeStream()
        let followers = zip(users, objects).map { user, object in
            let events = object.events  // subscribed before connecting, so nothing is missed
            return Task {
                for try await event in events {
                    guard case .updated(let update) = event, let color = update.changed["color"] else { continue }
                    // `data` already holds the change when the event arrives.
                    Self.show("\(user) sees color = \(color) (version \(update.version))")
                    seenContinuation.yield(update.version)
                }
            }
        }
        for (user, object) in zip(users, objects) {
            let state: SharedObjectState
            do {
                state = try await object.connect()
            } catch {
                throw ExampleFailure(description: "\(user) cannot connect to \(url): \(error)")
            }
            Self.show("\(user) connected at version \(state.version): color = \(state.data["color"]?.description ?? "none")")
        }

        var arrivals = seen.makeAsyncIterator()
        for color in ["red", "green", "blue"] {
            let version = try await objects[0].setProperty("color", .string(color))
            Self.show("alice set color = \(color): version \(version)")
            // Every client (alice too) is told; wait for all three before the next colour.
            var count = 0
            while count < users.count, let arrived = await arrivals.next() { if arrived == version { count += 1 } }
        }

        let views = objects.map { "\($0.data["color"] ?? "none")@\($0.version)" }
        if Set(views).count == 1 {
            Self.show("all three agree: color = \(objects[0].data["color"] ?? "none") at version \(objects[0].version)")
        } else {
            Self.show("the clients disagree: \(views)")
        }
        for object in objects { try await object.close() }
        for client in clients { await client.close() }
        followers.forEach { $0.cancel() }
        await server?.shutdown()
        if Set(views).count != 1 { throw ExitCode.failure }
    }

    /// Prints `line` at once, even when stdout is a pipe.
    static func show(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// A step of the example that failed, in words.
struct ExampleFailure: Error, CustomStringConvertible {
    var description: String
}
