import Foundation
import SignalingSupport
import TestSupport
import WebSocketTransport

/// A plain Kurento-protocol client for these tests: JSON text out over a `WebSocketConnection`, every frame in kept
/// as text and read with `JSONSerialization` (none of our JSON-RPC stack). Replies and events are awaited with
/// deadlines, never with sleeps.
final class RawKurentoClient: Sendable {
    let connection: WebSocketConnection
    private let frames = LockedValue<[String]>([])
    /// Request ids, unique across every client of the run: the double's request cache (as KMS's) replays a reply to a
    /// reused id within the same session, even on another socket.
    private static let nextID = LockedValue(1_000_000)  // apart from the ids tests write by hand
    private let reader: Task<Void, Never>

    /// A JSON object read from a frame.
    typealias JSON = [String: Any]

    /// A failure the test reports.
    struct Unexpected: Error, CustomStringConvertible {
        var description: String
    }

    private init(_ connection: WebSocketConnection) {
        self.connection = connection
        let frames = frames
        reader = Task {
            do {
                for try await message in connection.messages {
                    if case .text(let text) = message { frames.withLock { $0.append(text) } }
                }
            } catch {}
        }
    }

    deinit { reader.cancel() }

    /// Connects to `url` (the double's, or another path of it).
    static func connect(_ url: String) async throws -> RawKurentoClient {
        RawKurentoClient(try await WebSocketConnection.connect(to: url))
    }

    /// Every frame received so far, in order.
    var received: [String] { frames.withLock { $0 } }

    /// Sends one text frame as is.
    func send(text: String) async throws { try await connection.send(text: text) }

    /// Sends a JSON object.
    func send(_ object: JSON) async throws {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        try await send(text: String(decoding: data, as: UTF8.self))
    }

    /// A fresh request id.
    func makeID() -> Int { Self.nextID.withLock { $0 += 1; return $0 } }

    /// Sends request `method` with `params` (none when `nil`) and returns its reply (`result` or `error` inside).
    @discardableResult
    func call(_ method: String, _ params: JSON? = nil, id: Int? = nil) async throws -> JSON {
        let id = id ?? makeID()
        var request: JSON = ["jsonrpc": "2.0", "id": id, "method": method]
        if let params { request["params"] = params }
        let sent = received.count
        try await send(request)
        return try await reply(id: id, after: sent)
    }

    /// The `result` of a successful call; throws with the error otherwise.
    func result(_ method: String, _ params: JSON? = nil) async throws -> JSON {
        let reply = try await call(method, params)
        guard let result = reply["result"] as? JSON else { throw Unexpected(description: "\(method): \(reply)") }
        return result
    }

    /// The `error` of a call that must fail.
    func error(_ method: String, _ params: JSON? = nil) async throws -> JSON {
        let reply = try await call(method, params)
        guard let error = reply["error"] as? JSON else { throw Unexpected(description: "\(method) succeeded: \(reply)") }
        return error
    }

    /// `invoke` on `object`; returns the result's `value`.
    @discardableResult
    func invoke(_ object: String, _ operation: String, _ params: JSON? = nil) async throws -> Any? {
        var request: JSON = ["object": object, "operation": operation]
        if let params { request["operationParams"] = params }
        return try await result("invoke", request)["value"]
    }

    /// `create` of `type`; returns the new id.
    func create(_ type: String, _ constructorParams: JSON = [:]) async throws -> String {
        let result = try await result("create", ["type": type, "constructorParams": constructorParams])
        guard let id = result["value"] as? String else { throw Unexpected(description: "create: \(result)") }
        return id
    }

    /// The reply to request `id` (matched as an integer) among the frames from index `after` on, within the deadline.
    func reply(id: Int, after: Int = 0) async throws -> JSON {
        try await first("the reply to \(id)", after: after) { message in
            message["method"] == nil && (message["id"] as? NSNumber)?.intValue == id
        }
    }

    /// The first frame (from index `after` on) that is JSON and matches `predicate`.
    func first(_ what: String, after: Int = 0, _ predicate: @escaping @Sendable (JSON) -> Bool) async throws -> JSON {
        let frames = frames
        let found = LockedValue<String?>(nil)
        try await waitUntil(what) {
            guard let text = (frames.withLock { $0 }).dropFirst(after).first(where: { Self.parse($0).map(predicate) ?? false })
            else { return false }
            found.withLock { $0 = text }
            return true
        }
        return Self.parse(found.withLock { $0 } ?? "") ?? [:]
    }

    /// The `onEvent` notifications received so far, as their `params.value`.
    var events: [JSON] {
        received.compactMap(Self.parse).filter { $0["method"] as? String == "onEvent" }
            .compactMap { ($0["params"] as? JSON)?["value"] as? JSON }
    }

    /// The events of `type` (from `object`, when given) received so far.
    func events(_ type: String, from object: String? = nil) -> [JSON] {
        events.filter { $0["type"] as? String == type && (object == nil || $0["object"] as? String == object) }
    }

    /// Waits until `count` events of `type` (from `object`) have arrived, and returns them.
    @discardableResult
    func awaitEvents(_ type: String, from object: String? = nil, count: Int = 1) async throws -> [JSON] {
        try await waitUntil("\(count) \(type) event(s)") { self.events(type, from: object).count >= count }
        return events(type, from: object)
    }

    /// Closes the connection.
    func close() async { await connection.close() }

    static func parse(_ text: String) -> JSON? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? JSON
    }
}
