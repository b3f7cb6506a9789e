import Foundation
import JSONRPC
import JSONRPCWebSocket
import TestSupport

/// A client of SockJS's WebSocket transport written for the tests from the protocol's specification alone
/// (sockjs/sockjs-protocol `sockjs-protocol-0.3.3.py`: "Session URLs", "Protocol and framing", the WebSocket tests),
/// with Foundation's JSON and none of the server's SockJS code, over a raw WebSocket: what a SockJS client such as
/// KurentoTree.js's (`useSockJS: true`) does on the wire.
final class SockJSSpecClient: Sendable {
    /// One frame from the server.
    enum Frame: Sendable, Equatable {
        /// `o`
        case open
        /// `h`
        case heartbeat
        /// `a[…]`: the messages, in order.
        case messages([String])
        /// `c[code,"reason"]`
        case close(Int, String)
    }

    /// A frame that is none of the specification's.
    struct UnknownFrame: Error { var text: String }
    /// The WebSocket ended before the frame awaited.
    struct Ended: Error { var info: WebSocketCloseInfo }

    let socket: WebSocketConnection

    private init(socket: WebSocketConnection) { self.socket = socket }

    /// Opens a session under `prefix` (`ws://host:port/kurento-tree`): `<prefix>/<server>/<session>/websocket` with
    /// a three-digit server id and a random session id, as a client chooses them.
    static func open(_ prefix: String) async throws -> SockJSSpecClient {
        let server = String(format: "%03d", Int.random(in: 0...999))
        let session = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        return SockJSSpecClient(socket: try await WebSocketConnection.connect(to: "\(prefix)/\(server)/\(session)/websocket"))
    }

    /// The next frame, within `timeout`.
    func nextFrame(within timeout: Duration = .seconds(10)) async throws -> Frame {
        let socket = socket
        return try await withDeadline(timeout, "a SockJS frame") {
            var messages = socket.messages.makeAsyncIterator()
            guard let message = try await messages.next() else { throw Ended(info: await socket.closeInfo) }
            guard case .text(let text) = message else { throw UnknownFrame(text: "a binary message") }
            return try Self.parse(text)
        }
    }

    /// Parses one frame as the specification lists them.
    static func parse(_ text: String) throws -> Frame {
        let payload = Data(text.utf8.dropFirst())
        switch text.first {
        case "o" where text == "o": return .open
        case "h" where text == "h": return .heartbeat
        case "a":
            guard let messages = try JSONSerialization.jsonObject(with: payload) as? [String] else {
                throw UnknownFrame(text: text)
            }
            return .messages(messages)
        case "c":
            guard let parts = try JSONSerialization.jsonObject(with: payload) as? [Any], parts.count == 2,
                  let code = parts[0] as? Int, let reason = parts[1] as? String else { throw UnknownFrame(text: text) }
            return .close(code, reason)
        default:
            throw UnknownFrame(text: text)
        }
    }

    /// Sends `messages` in one WebSocket message: a JSON array of strings.
    func send(_ messages: [String]) async throws {
        let data = try JSONSerialization.data(withJSONObject: messages)
        try await socket.send(.text(String(decoding: data, as: UTF8.self)))
    }

    /// Sends `text` as it is (no framing).
    func sendRaw(_ text: String) async throws {
        try await socket.send(.text(text))
    }

    /// The next JSON-RPC messages, skipping heartbeats, within `timeout`.
    func nextMessages(within timeout: Duration = .seconds(10)) async throws -> [String] {
        while true {
            switch try await nextFrame(within: timeout) {
            case .heartbeat: continue
            case .messages(let messages): return messages
            case let other: throw UnknownFrame(text: "\(other)")
            }
        }
    }

    /// Sends the request `id` for `method` and returns its response, skipping the notifications that come first.
    func call(_ method: String, _ params: JSONValue? = nil, id: Int) async throws -> JSONValue {
        try await send([RPCRequest(id: .number(id), method: method, params: params).jsonText])
        while true {
            for text in try await nextMessages() {
                let message = try JSONValue(parsing: text)
                if message["id"] == .int(id) { return message }
            }
        }
    }

    /// Closes the WebSocket.
    func close() async { await socket.close() }
}
