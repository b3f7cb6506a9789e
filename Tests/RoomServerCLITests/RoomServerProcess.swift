import JSONRPC
import RoomClient
import TestSupport
import Testing

/// The built `room-server` binary, started with `--port 0`, and the URL its first stdout line names.
struct RoomServerProcess {
    let child: ChildProcess
    let url: String

    static func start(_ arguments: [String] = [], environment: [String: String] = [:]) async throws
        -> RoomServerProcess
    {
        let child = try ChildProcess("room-server", ["--port", "0"] + arguments, environment: environment)
        let url = try await child.nextLine() ?? ""
        return RoomServerProcess(child: child, url: url)
    }
}

/// The first event of `events` that matches `predicate`, awaited for at most `timeout`.
@discardableResult
func firstEvent(
    _ events: Broadcast<RoomEvent>.Subscription, _ what: String, timeout: Duration = .seconds(10),
    where predicate: @escaping @Sendable (RoomEvent) -> Bool
) async throws -> RoomEvent? {
    try await withDeadline(timeout, what) { try await events.first(where: predicate) }
}

/// A client of `room1` on `url`, connected and joined; returns it with the participants the join answered.
func joined(_ user: String, at url: String, configuration: RoomClient.Configuration = .init(reconnect: .off))
    async throws -> (RoomClient, [Peer])
{
    let client = RoomClient(room: Room(username: user, roomName: "room1", url: url), configuration: configuration)
    try await client.connect()
    return (client, try await client.join())
}

/// `child`'s stdout lines up to and including the first one that matches `predicate` (each line awaited for at
/// most 10 s); all of them, with an issue recorded, when stdout ends first.
func lines(of child: ChildProcess, until predicate: (String) -> Bool) async throws -> [String] {
    var seen: [String] = []
    while let line = try await child.nextLine() {
        seen.append(line)
        if predicate(line) { return seen }
    }
    Issue.record("stdout ended before the awaited line: \(seen)")
    return seen
}
