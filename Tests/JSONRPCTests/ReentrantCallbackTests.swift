import JSONRPC
import SignalingSupport
import TestSupport
import Testing

/// No user code runs under a lock of the client (docs/architecture.md#callbacks): every public callback of
/// `JSONRPCClient` may read the client and call it back. Each test would deadlock (and hit its deadline) if the
/// callback ran under the client's lock.
@Suite struct ReentrantCallbackTests {
    static let patient = JSONRPCClient.Configuration(requestTimeout: .seconds(120), reconnect: .off, heartbeat: .off)

    /// A call's result as JSON text, for logs.
    static func text(_ result: Result<JSONValue, RPCError>) -> String { (try? result.get())?.jsonText ?? "an error" }

    /// A client on a fresh in-memory pair, and the raw peer at its far end.
    static func clientAndPeer() -> (JSONRPCClient, RawPeer) {
        let (near, far) = LocalMessageConnection.pair()
        return (JSONRPCClient(transport: FixedTransport(connection: near), configuration: patient), RawPeer(connection: far))
    }

    @Test func aStateObserverCanReadTheStateAndCloseTheClient() async throws {
        // Given a state observer that, once connected, reads the state and closes the client
        let (client, _) = Self.clientAndPeer()
        let seen = LockedValue<[String]>([])
        client.observeConnectionStates { [weak client] state in
            guard let client else { return }
            seen.withLock { $0.append("\(state) (reads \(client.connectionState), \(client.isConnected))") }
            if state == .connected { Task { await client.close(code: 1000, reason: "from the observer") } }
        }

        // When it connects
        try await withDeadline(.seconds(10), "connect") { try await client.connect() }

        // Then the observer saw each state while reading the client, and its close went through
        let closed = ConnectionState.disconnected(ConnectionEnd(code: 1000, reason: "from the observer"))
        try await waitUntil("the close") { seen.withLock { $0 }.count == 3 }
        // (an observer may read a state newer than the one it is given: the connection may open before the
        // `connecting` callback runs, docs/architecture.md#callbacks)
        let first = seen.withLock { $0 }.first
        #expect(first == "connecting (reads connecting, false)" || first == "connecting (reads connected, true)")
        #expect(seen.withLock { $0 }.dropFirst() == ["connected (reads connected, true)", "\(closed) (reads \(closed), false)"])
    }

    @Test func aNotificationObserverCanCallTheClient() async throws {
        // Given a notification observer that reads the client and calls it back through the completion face
        let (client, peer) = Self.clientAndPeer()
        let answers = LockedValue<[String]>([])
        client.observeNotifications { [weak client] notification in
            guard let client, notification.method == "ask" else { return }
            answers.withLock { $0.append("asked while \(client.connectionState), \(client.pendingRequestIDs.count) pending") }
            client.call("answer") { result in answers.withLock { $0.append("answered \(Self.text(result))") } }
        }
        try await client.connect()

        // When the server sends the notification and answers the call it causes
        try await peer.send(#"{"jsonrpc":"2.0","method":"ask"}"#)
        let request = try await peer.receive()
        try await peer.send(#"{"jsonrpc":"2.0","id":\#(request["id"]!.jsonText),"result":42}"#)

        // Then the observer ran and its call completed
        try await waitUntil("the answer") { answers.withLock { $0 }.count == 2 }
        #expect(request["method"] == "answer")
        #expect(answers.withLock { $0 } == ["asked while connected, 0 pending", "answered 42"])
        await client.close()
    }

    @Test func anApplyClosureCanCallTheClient() async throws {
        // Given a call whose apply closure reads the client and sends a notification through it
        let (client, peer) = Self.clientAndPeer()
        let applied = Task {
            try await client.call("get", applying: { result in
                client.notify("applied", params: [result]) { _ in }
                return "\(result) while \(client.connectionState), \(client.pendingRequestIDs.count) pending"
            })
        }

        // When the server answers
        let request = try await peer.receive()
        try await peer.send(#"{"jsonrpc":"2.0","id":\#(request["id"]!.jsonText),"result":7}"#)

        // Then the call returns what apply returned, and apply's notification went out
        let value = try await withDeadline(.seconds(10), "the applied result") { try await applied.value }
        #expect(value == "7 while connected, 0 pending")
        #expect(try await peer.receive() == ["jsonrpc": "2.0", "method": "applied", "params": [7]])
        await client.close()
    }

    /// A delegate that calls the client back from its callbacks.
    final class CallingDelegate: JSONRPCClientDelegate {
        let log = LockedValue<[String]>([])
        func clientDidConnect(_ client: JSONRPCClient) {
            log.withLock { $0.append("connected: \(client.connectionState)") }
            client.call("fromDelegate") { [log] result in log.withLock { $0.append("result \(ReentrantCallbackTests.text(result))") } }
        }
        func client(_ client: JSONRPCClient, didReceiveRequest request: RPCRequest) {
            log.withLock { $0.append("request \(request.method)") }
            Task { await client.close(code: 1000, reason: "from the delegate") }
        }
        func clientDidDisconnect(_ client: JSONRPCClient) { log.withLock { $0.append("disconnected: \(client.connectionState)") } }
    }

    @Test func aDelegateCanCallTheClientAndCloseIt() async throws {
        // Given a delegate that calls the client when it connects and closes it on a server request
        let (client, peer) = Self.clientAndPeer()
        let delegate = CallingDelegate()
        client.delegate = delegate
        try await client.connect()

        // When the server answers the delegate's call, then sends a request
        let request = try await peer.receive()
        try await peer.send(#"{"jsonrpc":"2.0","id":\#(request["id"]!.jsonText),"result":"ok"}"#)
        try await waitUntil("the delegate's result") { delegate.log.withLock { $0 }.count == 2 }
        try await peer.send(#"{"jsonrpc":"2.0","method":"bye","id":"s1"}"#)

        // Then the delegate heard everything, its call completed and its close went through
        try await waitUntil("the disconnect") { delegate.log.withLock { $0 }.count == 4 }
        let closed = ConnectionState.disconnected(ConnectionEnd(code: 1000, reason: "from the delegate"))
        #expect(delegate.log.withLock { $0 } == ["connected: connected", "result \"ok\"", "request bye", "disconnected: \(closed)"])
    }

    @Test func aCompletionCanCallTheClientAndCloseIt() async throws {
        // Given a completion that makes another call, whose completion closes the client
        let (client, peer) = Self.clientAndPeer()
        let log = LockedValue<[String]>([])
        client.call("first") { [weak client] first in
            log.withLock { $0.append("first \(Self.text(first))") }
            guard let client else { return }
            client.call("second") { second in
                log.withLock { $0.append("second \(Self.text(second))") }
                Task { await client.close() }
            }
        }

        // When the server answers both
        for _ in 0..<2 {
            let request = try await peer.receive()
            try await peer.send(#"{"jsonrpc":"2.0","id":\#(request["id"]!.jsonText),"result":\#(request["method"]!.jsonText)}"#)
        }

        // Then both completed and the client closed
        try await waitUntil("the close") { client.connectionState == .disconnected(ConnectionEnd(code: 1000, reason: "")) }
        #expect(log.withLock { $0 } == [#"first "first""#, #"second "second""#])
    }

    @Test func aServerRequestHandlerCanCallTheClient() async throws {
        // Given a handler that answers a server request with the result of its own call to the server
        let (client, peer) = Self.clientAndPeer()
        client.handle("whoami") { [weak client] _ in try await client?.call("lookup") ?? .null }
        try await client.connect()

        // When the server sends the request, and answers the handler's call
        try await peer.send(#"{"jsonrpc":"2.0","method":"whoami","id":"s1"}"#)
        let lookup = try await peer.receive()
        try await peer.send(#"{"jsonrpc":"2.0","id":\#(lookup["id"]!.jsonText),"result":"alice"}"#)

        // Then the server's request gets the handler's answer
        #expect(lookup["method"] == "lookup")
        #expect(try await peer.receive() == ["jsonrpc": "2.0", "id": "s1", "result": "alice"])
        await client.close()
    }
}
