import JSONRPC
import SharedObjects
import SignalingSupport
import Testing
import TestSupport

/// The client's ordering rules against a scripted server over an in-memory connection: updates that arrive before
/// the connect result wait for it, old ones are ignored, and a gap makes the object re-sync.
@Suite struct SharedObjectOrderingTests {
    /// The far end of a client: reads its requests and answers as the test says.
    struct ScriptedServer {
        let far: LocalMessageConnection

        /// The next request, answering heartbeat pings on the way.
        func nextRequest(_ method: String) async throws -> JSONValue {
            while true {
                let request = try await withDeadline(.seconds(10), method) { try JSONValue(parsing: try await far.receive()) }
                if request["method"] == "ping" {
                    try await reply(to: request, ["value": "pong"])
                    continue
                }
                #expect(request["method"]?.stringValue == method)
                return request
            }
        }

        func notify(_ method: String, _ params: JSONValue) async throws {
            try await far.send(RPCMessage.notification(RPCNotification(method: method, params: params)).jsonText)
        }

        func reply(to request: JSONValue, _ result: JSONValue) async throws {
            try await far.send(JSONValue.object(["jsonrpc": "2.0", "id": request["id"] ?? .null, "result": result]).jsonText)
        }
    }

    static func update(_ version: Int, _ changed: JSONValue) -> JSONValue {
        ["name": "o", "version": .int(version), "changed": changed]
    }

    @Test func updatesBeforeTheConnectResultApplyAfterItAndAGapResyncs() async throws {
        // Given a client whose server is a script
        let (near, far) = LocalMessageConnection.pair()
        let rpc = JSONRPCClient(transport: FixedTransport(connection: near), configuration: .init(retries: 0, reconnect: .off))
        let server = ScriptedServer(far: far)
        let object = SharedObjectClient(client: rpc).object("o")
        let events = object.events

        // When the server sends updates 6 and 5 (old) before the connect result at version 5
        async let connected = object.connect()
        let connect = try await server.nextRequest("sharedObject.connect")
        try await server.notify("sharedObject.update", Self.update(6, ["b": 2]))
        try await server.notify("sharedObject.update", Self.update(5, ["stale": true]))
        try await server.reply(to: connect, ["name": "o", "version": 5, "persistent": false, "data": ["a": 1]])
        let state = try await connected

        // Then the result is the state at 5, and the snapshot has update 6 on top of it (the old one ignored)
        #expect(state.version == 5)
        #expect(object.version == 6)
        #expect(object.data == ["a": 1, "b": 2])

        // When an update skips version 7
        try await server.notify("sharedObject.update", Self.update(8, ["c": 3]))

        // Then the object re-syncs: it connects again and takes the whole state it is given
        let again = try await server.nextRequest("sharedObject.connect")
        try await server.reply(to: again, ["name": "o", "version": 8, "persistent": false, "data": ["a": 1, "b": 2, "c": 3]])
        let seen = try await collect(events, "the re-sync") { event in
            if case .connected(let state) = event { return state.version == 8 }
            return false
        }
        #expect(seen == [
            .connected(SharedObjectState(name: "o", version: 5, persistent: false, data: ["a": 1])),
            .updated(SharedObjectUpdate(name: "o", version: 6, changed: ["b": 2])),
            .connected(SharedObjectState(name: "o", version: 8, persistent: false, data: ["a": 1, "b": 2, "c": 3])),
        ])
        #expect(object.data == ["a": 1, "b": 2, "c": 3])
        await rpc.close()
    }

    final class RecordingDelegate: SharedObjectDelegate {
        let calls = LockedValue<[String]>([])
        func sharedObject(_ object: SharedObject, didConnect state: SharedObjectState) {
            calls.withLock { $0.append("connect \(state.version)") }
        }
        func sharedObject(_ object: SharedObject, didUpdate update: SharedObjectUpdate) {
            calls.withLock { $0.append("update \(update.version) \(update.changedKeys.sorted())") }
        }
        func sharedObject(_ object: SharedObject, didReceiveMessage method: String, params: JSONValue?) {
            calls.withLock { $0.append("message \(method)") }
        }
        func sharedObject(_ object: SharedObject, didCloseWithReason reason: String) {
            calls.withLock { $0.append("closed \(reason)") }
        }
    }

    @Test func theDelegateSeesTheEventsInOrder() async throws {
        // Given a delegate on an object of a scripted server
        let (near, far) = LocalMessageConnection.pair()
        let rpc = JSONRPCClient(transport: FixedTransport(connection: near), configuration: .init(retries: 0, reconnect: .off))
        let server = ScriptedServer(far: far)
        let object = SharedObjectClient(client: rpc).object("o")
        let delegate = RecordingDelegate()
        object.delegate = delegate

        // When it connects, gets an update and a message, and the server closes it
        async let connected = object.connect()
        try await server.reply(to: try await server.nextRequest("sharedObject.connect"),
                               ["name": "o", "version": 0, "persistent": false, "data": [:]])
        _ = try await connected
        try await server.notify("sharedObject.update", Self.update(1, ["x": 1, "y": nil]))
        try await server.notify("sharedObject.message", ["name": "o", "method": "hi"])
        try await server.notify("sharedObject.closed", ["name": "o", "reason": "bye"])

        // Then the delegate heard each, in order, and the object is closed
        try await waitUntil("the delegate's four calls") { delegate.calls.withLock { $0 }.count == 4 }
        #expect(delegate.calls.withLock { $0 } == ["connect 0", #"update 1 ["x", "y"]"#, "message hi", "closed bye"])
        #expect(!object.isOpen)
        await rpc.close()
    }
}
