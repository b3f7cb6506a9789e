import Foundation
import JSONRPC
import JSONRPCWebSocket
import RoomProtocol
import TestSupport
import Testing

/// Every message the Tree clients of one test sent and received, over real WebSockets, and their check against
/// `Schemas/tree-protocol.schema.json` by the python witness (one process per test, docs/testing.md#witnesses).
final class WireRecorder: Sendable {
    /// One message: whether the client sent it, and its text.
    struct Message: Sendable {
        /// Which connection carried it (request ids are per connection).
        var connection: Int
        var sent: Bool
        var text: String
    }

    private let log = WireLog()

    /// A transport to `url` whose connections record their traffic here.
    func transport(_ url: String) -> any MessageTransport { log.transport(WebSocketMessageTransport(url: url)) }

    /// The messages so far.
    var all: [Message] {
        log.entries.map { Message(connection: $0.connection, sent: $0.direction == .sent, text: $0.text) }
    }

    /// Checks every message against its schema definition: a request against `<method>Request`, a result
    /// against `<method>Response` (the method of its request), an error against `treeErrorResponse`, a
    /// notification against `<method>Notification`. A request that deliberately breaks the protocol (unknown
    /// method, or answered -32602) is checked against the bare request envelope. Request ids are per connection.
    private struct Key: Hashable { var connection: Int, id: Int }

    func validate() throws {
        var methodOfId: [Key: String] = [:]
        var malformed: Set<Key> = []
        let parsed = all.map { ($0, try? JSONValue(parsing: $0.text)) }
        for (message, json) in parsed where !message.sent {
            if let id = json?["id"]?.intValue, json?["error"]?["code"]?.intValue == -32602 {
                malformed.insert(Key(connection: message.connection, id: id))
            }
        }
        var cases: [SchemaValidation.Case] = []
        for (index, (message, json)) in parsed.enumerated() {
            // The session's own messages (docs/wire-protocol.md#delivery): the Kurento conventions' schema.
            if let session = Self.sessionDefinition(message, json, methodOfId: &methodOfId) {
                cases.append(SchemaValidation.Case(
                    label: "\(index) \(message.sent ? "sent" : "received") \(session): \(message.text)",
                    schema: "Schemas/kurento-conventions.schema.json", ref: "#/$defs/\(session)",
                    instanceJSON: message.text))
                continue
            }
            let definition: String
            if message.sent, let method = json?["method"]?.stringValue, let id = json?["id"]?.intValue {
                let key = Key(connection: message.connection, id: id)
                methodOfId[key] = method
                let known = TreeMethod(rawValue: method) != nil
                definition = known && !malformed.contains(key) ? "\(method)Request" : "request"
            } else if let method = json?["method"]?.stringValue {
                definition = "\(method)Notification"
            } else if json?["error"] != nil {
                definition = "treeErrorResponse"
            } else {
                let key = Key(connection: message.connection, id: json?["id"]?.intValue ?? -1)
                definition = "\(methodOfId[key] ?? "unknown")Response"
            }
            cases.append(SchemaValidation.Case(
                label: "\(index) \(message.sent ? "sent" : "received") \(definition): \(message.text)",
                schema: "Schemas/tree-protocol.schema.json", ref: "#/$defs/\(definition)", instanceJSON: message.text))
        }
        #expect(!cases.isEmpty)
        for verdict in try SchemaValidation.validate(cases) {
            #expect(verdict.valid, "\(verdict.label): \(verdict.errors)")
        }
    }

    /// The Kurento-conventions definition of a session message (a `connect` or `ping`, their replies, `rpc.ack`),
    /// or `nil` for a Tree message. Control requests have negative ids, so they never collide with the Tree calls'.
    private static func sessionDefinition(_ message: Message, _ json: JSONValue?,
                                          methodOfId: inout [Key: String]) -> String? {
        let method = json?["method"]?.stringValue
        if method == "rpc.ack" { return "acknowledgement" }
        if message.sent, method == "connect" || method == "ping", let id = json?["id"]?.intValue {
            methodOfId[Key(connection: message.connection, id: id)] = method
            return method == "connect" ? "connectRequest" : "pingRequest"
        }
        guard !message.sent, method == nil, let id = json?["id"]?.intValue,
              let asked = methodOfId[Key(connection: message.connection, id: id)], asked == "connect" || asked == "ping"
        else { return nil }
        if asked == "ping" { return "pingReply" }
        return json?["result"]?["value"] == "OK" ? "connectNewReply" : "connectResumedReply"
    }
}
