import JSONRPC
import JSONRPCWebSocket
import RoomServer
import SignalingSupport
import TestSupport
import Testing

/// A scripted raw client speaking wire JSON to a ``RoomServer`` over an in-memory connection: requests get integer
/// ids, responses are matched by id, and notifications that arrive meanwhile are kept in order for
/// ``notification(_:)``. Every wait has a deadline (docs/testing.md#deadlines: no sleeps).
final class RoomPeer: Sendable {
    let connection: any MessageConnection
    private let ids = SequentialIDs()
    private let stash = LockedValue<[JSONValue]>([])
    private let methods = LockedValue<[Int: String]>([:])
    /// Every message received, as text, with the schema definition it should satisfy
    /// (`<method>Response`, `<method>Notification`, or `roomErrorResponse`).
    let received = LockedValue<[(definition: String, text: String)]>([])

    init(connection: any MessageConnection) { self.connection = connection }

    /// A peer whose far end `server` serves.
    static func connected(to server: RoomServer) -> RoomPeer {
        let (near, far) = LocalMessageConnection.pair()
        Task { await server.serve(far) }
        return RoomPeer(connection: near)
    }

    /// A peer on a real WebSocket to `url`.
    static func dialing(_ url: String, configuration: WebSocketClientConfiguration = .init()) async throws -> RoomPeer {
        RoomPeer(connection: WebSocketMessageConnection(
            try await WebSocketConnection.connect(to: url, configuration: configuration)))
    }

    /// Sends raw text.
    func sendText(_ text: String) async throws { try await connection.send(text) }

    /// Sends a request without waiting and returns its id.
    func send(_ method: String, _ params: JSONValue? = nil) async throws -> Int {
        let id = ids.next()
        methods.withLock { $0[id] = method }
        try await sendText(RPCRequest(id: .number(id), method: method, params: params).jsonText)
        return id
    }

    /// The whole response to request `id` (`{"id", "result"|"error", "jsonrpc"}`), keeping notifications.
    /// With `skippingOthers`, responses to other ids are dropped instead of recorded as issues.
    func response(_ id: Int, skippingOthers: Bool = false) async throws -> JSONValue {
        while true {
            let message = try await next()
            if message["method"] != nil {
                stash.withLock { $0.append(message) }
            } else if message["id"] == .int(id) {
                return message
            } else if !skippingOthers {
                Issue.record("unexpected message \(message.jsonText)")
            }
        }
    }

    /// Sends a request and returns its whole response.
    func request(_ method: String, _ params: JSONValue? = nil) async throws -> JSONValue {
        try await response(try await send(method, params))
    }

    /// Sends a request and returns its `result`, recording an issue if it failed.
    @discardableResult
    func result(_ method: String, _ params: JSONValue? = nil) async throws -> JSONValue {
        let reply = try await request(method, params)
        #expect(reply["error"] == nil, "\(method) failed: \(reply.jsonText)")
        return reply["result"] ?? .null
    }

    /// Sends a request and returns its `error`, recording an issue if it succeeded.
    func error(_ method: String, _ params: JSONValue? = nil) async throws -> JSONValue {
        let reply = try await request(method, params)
        #expect(reply["error"] != nil, "\(method) succeeded: \(reply.jsonText)")
        return reply["error"] ?? .null
    }

    /// The next notification (`{"method", "params"}`), in arrival order.
    func notification() async throws -> JSONValue {
        // (No ternary here: JSONValue is ExpressibleByNilLiteral, so `cond ? nil : v` would make `nil` a JSON null.)
        let kept = stash.withLock { (s: inout [JSONValue]) -> JSONValue? in
            if s.isEmpty { return Optional.none }
            return s.removeFirst()
        }
        if let kept { return kept }
        while true {
            let message = try await next()
            if message["method"] != nil { return message }
            Issue.record("unexpected message \(message.jsonText)")
        }
    }

    /// The notifications received but not yet taken by ``notification()``, in arrival order.
    var unreadNotifications: [JSONValue] { stash.withLock { $0 } }

    /// The params of the next notification, which must be `method`.
    @discardableResult
    func notification(_ method: String) async throws -> JSONValue {
        let note = try await notification()
        #expect(note["method"]?.stringValue == method, "expected \(method), got \(note.jsonText)")
        return note["params"] ?? .null
    }

    /// Waits for the server to end the connection and returns how it ended; notifications before are kept.
    func end() async throws -> ConnectionEnd {
        do {
            while true {
                let message = try await next()
                stash.withLock { $0.append(message) }
            }
        } catch let end as ConnectionEnd {
            return end
        }
    }

    /// `joinRoom` and its `value`.
    @discardableResult
    func join(_ user: String, _ room: String = "room1") async throws -> JSONValue {
        try await result("joinRoom", ["user": .string(user), "room": .string(room)])["value"] ?? .null
    }

    /// The next raw message, whatever it is.
    func next() async throws -> JSONValue {
        let connection = connection
        let text = try await withDeadline(.seconds(10), "a message from the room server") {
            try await connection.receive()
        }
        let message = try JSONValue(parsing: text)
        let definition: String
        if let method = message["method"]?.stringValue {
            definition = "\(method)Notification"
        } else if message["error"] == nil, let id = message["id"]?.intValue, let method = (methods.withLock { $0 })[id] {
            definition = "\(method)Response"
        } else {
            definition = "roomErrorResponse"
        }
        received.withLock { $0.append((definition, text)) }
        return message
    }
}
