import JSONRPC
import SignalingSupport
import TestSupport
import Testing

/// The delegate and completion-closure faces over the async core.
@Suite struct ClientFacesTests {
    final class RecordingDelegate: JSONRPCClientDelegate {
        let events = LockedValue<[String]>([])
        func clientDidConnect(_ client: JSONRPCClient) { events.withLock { $0.append("connect") } }
        func clientDidDisconnect(_ client: JSONRPCClient) { events.withLock { $0.append("disconnect") } }
        func client(_ client: JSONRPCClient, didReceiveRequest request: RPCRequest) {
            events.withLock { $0.append("request \(request.method)") }
        }
        func client(_ client: JSONRPCClient, didFailWithError error: RPCError) {
            let kind = switch error {
            case .invalidResponse: "invalidResponse"
            case .connectionClosed: "connectionClosed"
            default: "\(error)"
            }
            events.withLock { $0.append("fail \(kind)") }
        }
        var all: [String] { events.withLock { $0 } }
    }

    @Test func delegateHearsConnectRequestFailureAndDisconnect() async throws {
        // Given a client with a delegate, talking to a raw peer
        let (near, far) = LocalMessageConnection.pair()
        let client = JSONRPCClient(transport: FixedTransport(connection: near), configuration: .init(reconnect: .off))
        let delegate = RecordingDelegate()
        client.delegate = delegate
        let peer = RawPeer(connection: far)

        // When it connects, gets a request and garbage, and the peer drops the connection
        try await client.connect()
        try await peer.send(#"{"jsonrpc":"2.0","method":"hello","id":1}"#)
        _ = try await peer.receive()  // the -32601 answer
        try await peer.send("not json")
        await far.close(code: 1006, reason: "dropped")

        // Then the delegate heard all of it, in order (didFailWithError really is called)
        try await waitUntil("five delegate calls") { delegate.all.count == 5 }
        #expect(delegate.all == ["connect", "request hello", "fail invalidResponse", "disconnect", "fail connectionClosed"])
    }

    @Test func completionClosureGetsResultOnce() async throws {
        let client = JSONRPCClient(transport: LocalTransport.serving(.specificationExamples()))
        let results = LockedValue<[Result<JSONValue, RPCError>]>([])
        client.call("subtract", params: [42, 23]) { result in results.withLock { $0.append(result) } }
        try await waitUntil("the completion") { results.withLock { $0.count } == 1 }
        #expect(try results.withLock { $0 }[0].get() == 19)
    }

    /// `connect(completion:)` and `notify(_:params:completion:)` complete with `Result<Void, any Error>`, the
    /// shape of `SignalingClient.connect(completion:)` (one shape per verb), exactly once each.
    @Test func connectAndNotifyCompletionsGetOneResultEach() async throws {
        // Given a client on a raw peer
        let (near, far) = LocalMessageConnection.pair()
        let client = JSONRPCClient(transport: FixedTransport(connection: near), configuration: .init(reconnect: .off))
        let peer = RawPeer(connection: far)
        let outcomes = LockedValue<[String]>([])
        let record: @Sendable (String, Result<Void, any Error>) -> Void = { verb, result in
            let text = switch result {
            case .success: "\(verb) ok"
            case .failure: "\(verb) failed"
            }
            outcomes.withLock { $0.append(text) }
        }

        // When it connects and notifies through the completion faces, then notifies once the peer has gone
        client.connect { record("connect", $0) }
        try await waitUntil("the connect completion") { outcomes.withLock { $0 } == ["connect ok"] }
        client.notify("hello", params: ["from": "test"]) { record("notify", $0) }
        let notification = try await peer.receive()
        try await waitUntil("the notify completion") { outcomes.withLock { $0.count } == 2 }
        await far.close(code: 1006, reason: "dropped")
        try await waitUntil("the drop") { !client.isConnected }
        client.notify("late") { record("late notify", $0) }

        // Then each completion ran once, with what happened
        try await waitUntil("the late completion") { outcomes.withLock { $0.count } == 3 }
        #expect(notification["method"] == "hello")
        #expect(outcomes.withLock { $0 } == ["connect ok", "notify ok", "late notify failed"])
    }

    @Test func delegateIsHeldWeakly() {
        let client = JSONRPCClient(transport: LocalTransport.serving(.specificationExamples()))
        var delegate: RecordingDelegate? = RecordingDelegate()
        client.delegate = delegate
        #expect(client.delegate != nil)
        delegate = nil
        #expect(client.delegate == nil)
    }

    @Test func batchOfServerRequestsIsAnsweredWithOneArray() async throws {
        // Given a client with one handler, talking to a raw peer
        let (near, far) = LocalMessageConnection.pair()
        let client = JSONRPCClient(transport: FixedTransport(connection: near))
        client.handle("double") { params in .int((params?[0]?.intValue ?? 0) * 2) }
        try await client.connect()
        let peer = RawPeer(connection: far)

        // When the peer sends a batch of a known and an unknown request
        let reply = try await peer.exchange(
            #"[{"jsonrpc":"2.0","method":"double","params":[4],"id":1},{"jsonrpc":"2.0","method":"nope","id":2}]"#)

        // Then one array answers both
        #expect(sameElements(reply, [
            ["jsonrpc": "2.0", "id": 1, "result": 8],
            ["jsonrpc": "2.0", "id": 2, "error": ["code": -32601, "message": "Method not found"]],
        ]))
    }
}
