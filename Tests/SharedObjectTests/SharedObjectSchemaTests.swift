import JSONRPC
import JSONRPCWebSocket
import RoomClient
import RoomServer
import SharedObjectServer
import SharedObjects
import TestSupport
import Testing

/// An independent witness (docs/testing.md#witnesses): every shared-object message both sides sent in a session that
/// uses every method, notification and error validates against `Schemas/shared-objects.schema.json` (one python
/// process).
@Suite struct SharedObjectSchemaTests {
    @Test(.enabled(if: SchemaValidation.mustRun, "python3 with jsonschema is missing"))
    func everySharedObjectMessageValidates() async throws {
        // Given a room server (Kurento conventions) with small limits, and two members of room "demo"
        let limits = SharedObjectLimits(maxObjectsPerSession: 3, maxBytesPerObject: 200, maxUpdatesPerSecond: 12)
        let server = try await RoomServer.start(.init(sharedObjects: .init(limits: limits)))
        let aliceLog = WireLog(), bobLog = WireLog()
        let alice = RoomClient(room: Room(username: "alice", roomName: "demo", url: server.url),
                               transport: RecordingTransport(inner: WebSocketMessageTransport(url: server.url), log: aliceLog))
        let bob = RoomClient(room: Room(username: "bob", roomName: "demo", url: server.url),
                             transport: RecordingTransport(inner: WebSocketMessageTransport(url: server.url), log: bobLog))
        try await alice.join()
        try await bob.join()
        let aliceShared = SharedObjectClient(client: alice.jsonRPCClient)
        let bobShared = SharedObjectClient(client: bob.jsonRPCClient)

        // When they use every method, and hit every error
        let color = try await aliceShared.connect("room:demo/color", persistent: true)
        let bobColor = bobShared.object("room:demo/color")
        let bobEvents = bobColor.events
        try await bobColor.connect()
        try await color.setProperties(["color": "red", "size": 3, "tags": ["a"], "meta": ["x": 1.5, "y": nil]])
        try await color.setProperty("size", nil)
        try await bobColor.send("wave", params: ["from": "bob"])
        try await bobColor.send("poke")
        _ = try await collect(bobEvents, "bob's poke") {
            $0 == .message(method: "poke", params: nil, sender: .user("bob", room: "demo"))
        }
        _ = await remoteError { try await color.setProperty("big", .string(String(repeating: "x", count: 300))) }
        _ = await remoteError { try await aliceShared.object("unconnected").setProperty("a", 1) }
        _ = await remoteError { _ = try await aliceShared.connect("room:elsewhere/x") }
        _ = await remoteError { _ = try await alice.jsonRPCClient.call("sharedObject.set", params: ["name": "x"]) }
        _ = try await aliceShared.connect("two")
        _ = try await aliceShared.connect("three")
        _ = await remoteError { _ = try await aliceShared.connect("four") }
        for _ in 0..<12 { _ = await remoteError { try await color.send("burst") } }
        let scratch = try await bobShared.connect("scratch")
        try await scratch.close()
        try await bob.leave()  // bob gets sharedObject.closed for room:demo/color
        _ = try await collect(bobEvents, "bob's closed event") { if case .closed = $0 { true } else { false } }

        // and a plain JSON-RPC server answers void results with null
        let plain = try await SharedObjectServerFixture.start(conventions: .plain)
        let plainPeer = SharedObjectPeer(url: plain.url)
        let board = try await plainPeer.shared.connect("board")
        try await board.setProperty("k", "v")
        try await board.send("hello", params: [1, 2])
        try await board.close()

        // Then every shared-object message validates against its definition
        var cases: [SchemaValidation.Case] = []
        for (label, log) in [("alice", aliceLog), ("bob", bobLog), ("plain", plainPeer.log)] {
            cases += try Self.cases(label, log)
        }
        let definitions = Set(cases.map { $0.ref ?? "" })
        for wanted in ["connect", "set", "send", "close"] {
            #expect(definitions.contains("#/$defs/\(wanted)Request"))
            #expect(definitions.contains("#/$defs/\(wanted)Response"))
        }
        for wanted in ["updateNotification", "messageNotification", "closedNotification", "errorResponse"] {
            #expect(definitions.contains("#/$defs/\(wanted)"))
        }
        let codes = Set(cases.compactMap { c -> Int? in
            guard c.ref == "#/$defs/errorResponse" else { return nil }
            return (try? JSONValue(parsing: c.instanceJSON))?["error"]?["code"]?.intValue
        })
        #expect(codes == [1101, 1102, 1103, 1104, -32000, -32602])
        for verdict in try SchemaValidation.validate(cases) {
            #expect(verdict.valid, "\(verdict.label): \(verdict.errors)")
        }
        // and the whole schema accepts each of them too
        let whole = cases.map { SchemaValidation.Case(label: "whole " + $0.label, schema: $0.schema, instanceJSON: $0.instanceJSON) }
        for verdict in try SchemaValidation.validate(whole) {
            #expect(verdict.valid, "\(verdict.label): \(verdict.errors)")
        }

        await alice.disconnect()
        await plainPeer.close()
        await plain.shutdown()
        await server.shutdown()
    }

    /// The shared-object messages of one wire log, each with the definition it must satisfy. A request the test
    /// malformed on purpose (answered -32602) is left out: the schema describes conforming senders.
    static func cases(_ label: String, _ log: WireLog) throws -> [SchemaValidation.Case] {
        var methods: [JSONValue: String] = [:]
        var cases: [(id: JSONValue?, case: SchemaValidation.Case)] = []
        var malformed: Set<JSONValue> = []
        for (index, entry) in log.entries.enumerated() {
            let message = try JSONValue(parsing: entry.text)
            let definition: String
            if let method = message["method"]?.stringValue {
                guard method.hasPrefix("sharedObject.") else { continue }
                let short = String(method.dropFirst("sharedObject.".count))
                if let id = message["id"] {
                    methods[id] = short
                    definition = short + "Request"
                } else {
                    definition = short + "Notification"
                }
            } else if let id = message["id"], let short = methods[id], entry.direction == .received {
                definition = message["error"] != nil ? "errorResponse" : short + "Response"
                if message["error"]?["code"] == -32602 { malformed.insert(id) }
            } else {
                continue
            }
            let request = definition.hasSuffix("Request") ? message["id"] : nil
            cases.append((request, SchemaValidation.Case(label: "\(label) #\(index) \(definition)",
                                                         schema: "Schemas/shared-objects.schema.json",
                                                         ref: "#/$defs/\(definition)", instanceJSON: entry.text)))
        }
        return cases.filter { $0.id.map { !malformed.contains($0) } ?? true }.map(\.case)
    }
}
