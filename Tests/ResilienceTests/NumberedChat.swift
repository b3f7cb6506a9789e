import JSONRPC
import JSONRPCWebSocket
import RoomClient
import RoomServer
import SignalingSupport
import TestSupport
import Testing

/// Numbered chat for the delivery tests (issue 32): a sender that says "1", "2", … and then "end", a tally of what a
/// receiver heard, and the verdict: every number exactly once, in order.
enum NumberedChat {
    /// The sender's name in the room; receivers count only its chat.
    static let sender = "bob"
    /// The receiver's name in the room.
    static let receiver = "alice"
    /// The room.
    static let room = "r"
    /// The marker the sender says last: a receiver that heard it heard everything before it, or never will.
    static let marker = "end"

    /// A server that lets the tests' chat through: no fan-out budget, and room for a receiver whose link is
    /// stalled to fall far behind without being closed (the faults are the proxy's, not the server's limits).
    static func server(reconnectionWindow: Duration = .seconds(5)) async throws -> RoomServer {
        try await RoomServer.start(.init(
            limits: .init(maxQueuedNotifications: 100_000, maxBroadcastBytesPerSecond: nil,
                          maxUnacknowledgedBytes: 64 << 20),
            reconnectionWindow: reconnectionWindow))
    }

    /// The JSON-RPC settings of a receiver behind the proxy: reconnects at once (backoff from 50 ms), no retries, and
    /// (a raw client of a server of this package) counts and acknowledges what it reads
    /// (docs/wire-protocol.md#delivery), as `RoomClient` does by itself.
    static func receiverConfiguration(heartbeat: JSONRPCClient.Heartbeat,
                                      clock: any SignalingClock = SystemClock()) -> JSONRPCClient.Configuration {
        .init(requestTimeout: .seconds(10) * deadlineScale, retries: 0, reconnect: .automatic(.fast),
              heartbeat: heartbeat, clock: clock, acknowledgesNotifications: true)
    }

    /// A raw JSON-RPC client in the room as ``receiver``, through `proxy`, that tells `tally` every chat message
    /// of ``sender`` and every resume (its `joinRoom` is a raw call; it reads `sendMessage` notifications).
    static func rawReceiver(through proxy: FaultProxy, heartbeat: JSONRPCClient.Heartbeat = .off,
                            clock: any SignalingClock = SystemClock(), tally: ChatTally) async throws -> JSONRPCClient {
        let client = JSONRPCClient(url: proxy.url(path: "/room"),
                                   configuration: receiverConfiguration(heartbeat: heartbeat, clock: clock))
        client.observeNotifications { notification in
            guard notification.method == "sendMessage", notification.params?["user"]?.stringValue == sender,
                  let text = notification.params?["message"]?.stringValue else { return }
            tally.record(text)
        }
        client.observeConnectionStates { state in if state == .resumed || state == .rejoined { tally.recordRecovery() } }
        _ = try await client.call("joinRoom", params: ["user": .string(receiver), "room": .string(room)])
        return client
    }

    /// A `RoomClient` in the room as ``receiver``, through `proxy`, that tells `tally` every chat message of
    /// ``sender`` and every resume or rejoin.
    static func roomReceiver(through proxy: FaultProxy, heartbeat: JSONRPCClient.Heartbeat = .off,
                             clock: any SignalingClock = SystemClock(),
                             tally: ChatTally) async throws -> (RoomClient, Task<Void, Never>) {
        let client = RoomClient(
            room: Room(username: receiver, roomName: room, url: proxy.url(path: "/room")),
            configuration: .init(receiverConfiguration(heartbeat: heartbeat, clock: clock).signalingConfiguration(eventBufferLimit: 100_000)))
        let events = client.events
        let reader = Task {
            do {
                for try await event in events {
                    switch event {
                    case .message(let text, from: sender): tally.record(text)
                    case .connectionStateChanged(.resumed), .connectionStateChanged(.rejoined): tally.recordRecovery()
                    default: break
                    }
                }
            } catch {
                tally.fail("the RoomClient's events ended: \(error)")
            }
        }
        try await client.join()
        return (client, reader)
    }
}

extension JSONRPCClient.Configuration {
    /// These settings as a RoomClient's shared ones, with an event buffer of `eventBufferLimit`.
    func signalingConfiguration(eventBufferLimit: Int) -> SignalingClientConfiguration {
        SignalingClientConfiguration(requestTimeout: requestTimeout, retries: retries, clock: clock,
                                     eventBufferLimit: eventBufferLimit, reconnect: reconnect, heartbeat: heartbeat)
    }
}

/// What a receiver heard of the numbered chat, and how often it got back after a fault.
final class ChatTally: Sendable {
    private let state = LockedValue((numbers: [Int](), markers: 0, recoveries: 0, failures: [String]()))

    /// One chat message: a number (what follows a space is padding), or the marker.
    func record(_ text: String) {
        state.withLock { s in
            if text == NumberedChat.marker {
                s.markers += 1
            } else if let number = Int(text.prefix { $0 != " " }) {
                s.numbers.append(number)
            } else {
                s.failures.append("unexpected chat: \(text.prefix(80))")
            }
        }
    }

    /// The receiver resumed (or rejoined) after a fault.
    func recordRecovery() { state.withLock { $0.recoveries += 1 } }

    /// Something that must not happen (the receiver's events ended, say).
    func fail(_ reason: String) { state.withLock { $0.failures.append(reason) } }

    var recoveries: Int { state.withLock { $0 }.recoveries }
    var failures: [String] { state.withLock { $0 }.failures }

    /// Waits until the receiver got back more than `count` times.
    func waitForRecovery(after count: Int, timeout: Duration = .seconds(10)) async throws {
        try await waitUntil("the receiver to resume (recovery \(count + 1))", timeout: timeout) { self.recoveries > count }
    }

    /// Waits for the marker, then returns the verdict on numbers 1 through `expected`.
    func report(expecting expected: Int, timeout: Duration = .seconds(20)) async throws -> SequenceReport {
        try await waitUntil("the marker to reach the receiver", timeout: timeout) { self.state.withLock { $0 }.markers > 0 }
        let s = state.withLock { $0 }
        return SequenceReport(expected: expected, received: s.numbers, markers: s.markers)
    }
}

/// The verdict on a receiver's numbered chat: it should be exactly 1, 2, …, `expected`, and the marker once.
struct SequenceReport: CustomStringConvertible {
    let expected: Int
    let received: [Int]
    let markers: Int

    /// Numbers received at least once.
    var distinct: Int { Set(received).count }
    /// Numbers never received.
    var lost: Int { expected - Set(received).intersection(1...max(expected, 1)).count }
    /// Receptions beyond the first of each number.
    var doubled: Int { received.count - distinct }
    /// Places where a number came after a larger one.
    var backwardSteps: Int { zip(received, received.dropFirst()).count { $1 < $0 } }
    /// Exactly once, in order, marker once.
    var isExact: Bool { received == Array(1...expected) && markers == 1 }

    var description: String {
        var text = "\(distinct) of \(expected) received (\(lost) lost), \(doubled) doubled, "
            + (backwardSteps == 0 ? "in order" : "\(backwardSteps) steps backwards")
        if markers != 1 { text += ", marker \(markers) times" }
        if lost > 0 {
            let missing = Set(1...expected).subtracting(received).sorted()
            text += "; lost runs: \(Self.runs(missing).prefix(8).joined(separator: ", "))"
        }
        return text
    }

    /// `numbers` (sorted) as runs: "5-9", "12".
    static func runs(_ numbers: [Int]) -> [String] {
        var runs: [(first: Int, last: Int)] = []
        for n in numbers {
            if let run = runs.last, n == run.last + 1 { runs[runs.count - 1].last = n } else { runs.append((n, n)) }
        }
        return runs.map { $0.first == $0.last ? "\($0.first)" : "\($0.first)-\($0.last)" }
    }
}

/// The other member, connected straight to the server: says numbered chat at a steady pace.
struct ChatSender {
    let client: JSONRPCClient

    /// Joins the room at `url` as ``NumberedChat/sender``, pacing its requests at `perSecond` (`nil`: unpaced).
    static func joining(_ url: String, perSecond: Double? = nil) async throws -> ChatSender {
        let client = JSONRPCClient(url: url, configuration: .init(requestTimeout: .seconds(10) * deadlineScale,
                                                                  reconnect: .off, heartbeat: .off))
        client.paceRequests(perSecond: perSecond)
        _ = try await client.call("joinRoom", params: ["user": .string(NumberedChat.sender),
                                                       "room": .string(NumberedChat.room)])
        return ChatSender(client: client)
    }

    /// Says each number of `numbers`, one after the other (each waits for its answer: the server fanned it out),
    /// followed by a space and `padding` bytes when `padding` is positive.
    func say(_ numbers: ClosedRange<Int>, padding: Int = 0) async throws {
        let pad = padding > 0 ? " " + String(repeating: "x", count: padding) : ""
        for n in numbers { try await say("\(n)\(pad)") }
    }

    /// Says `text` to the room.
    func say(_ text: String) async throws {
        _ = try await client.call("sendMessage", params: ["message": .string(text),
                                                          "userMessage": .string(NumberedChat.sender),
                                                          "roomMessage": .string(NumberedChat.room)])
    }
}
