import JSONRPC
import SignalingSupport
import TestSupport
import Testing

/// `observeNotifications(_:)` and `call(_:params:timeout:retries:applying:)` run in the receive loop, so a layer above
/// sees notifications and results in wire order (docs/architecture.md#callbacks).
@Suite struct WireOrderHooksTests {
    struct Refused: Error {}

    /// The tests wait on messages: a loaded machine must not time calls out.
    static let patient = JSONRPCClient.Configuration(requestTimeout: .seconds(120))

    @Test func appliedResultSeesEarlierNotificationsAndPrecedesLaterOnes() async throws {
        // Given a client whose observer logs notifications, and a raw peer
        let (near, far) = LocalMessageConnection.pair()
        let client = JSONRPCClient(transport: FixedTransport(connection: near), configuration: Self.patient)
        let log = LockedValue<[String]>([])
        client.observeNotifications { notification in log.withLock { $0.append(notification.method) } }
        let peer = RawPeer(connection: far)

        // When a notification precedes the response and another follows it in the same burst
        async let snapshot = client.call("get", applying: { result in
            log.withLock { $0.append("result \(result)"); return $0 }
        })
        let request = try await peer.receive()
        try await peer.send(#"{"jsonrpc":"2.0","method":"before"}"#)
        try await peer.send(#"{"jsonrpc":"2.0","id":\#(request["id"]!.jsonText),"result":1}"#)
        try await peer.send(#"{"jsonrpc":"2.0","method":"after"}"#)

        // Then apply ran between them, and the call returned what apply returned
        #expect(try await snapshot == ["before", "result 1"])
        try await waitUntil("the later notification") { log.withLock { $0 }.count == 3 }
        #expect(log.withLock { $0 } == ["before", "result 1", "after"])
    }

    @Test func applyRunsOnlyForResultsAndItsErrorBecomesInvalidResponse() async throws {
        let (near, far) = LocalMessageConnection.pair()
        let client = JSONRPCClient(transport: FixedTransport(connection: near), configuration: Self.patient)
        let peer = RawPeer(connection: far)
        let applied = LockedValue(0)

        let refused = Task { () async throws -> Int in
            try await client.call("a", applying: { _ in applied.withLock { $0 += 1 }; throw Refused() })
        }
        let first = try await peer.receive()
        try await peer.send(#"{"jsonrpc":"2.0","id":\#(first["id"]!.jsonText),"result":true}"#)
        await #expect { try await refused.value } throws: { error in
            guard case .invalidResponse? = error as? RPCError else { return false }
            return true
        }

        let failed = Task { () async throws -> Int in
            try await client.call("b", applying: { _ in applied.withLock { $0 += 1 }; return 0 })
        }
        let second = try await peer.receive()
        try await peer.send(#"{"jsonrpc":"2.0","id":\#(second["id"]!.jsonText),"error":{"code":7,"message":"no"}}"#)
        await #expect { try await failed.value } throws: { ($0 as? RPCError)?.remoteError?.code == 7 }
        #expect(applied.withLock { $0 } == 1)
    }

    @Test func stateObserversSeeEveryChangeInOrderWithTheNotifications() async throws {
        // Given a client whose observers log notifications and state changes into one log
        let (near, far) = LocalMessageConnection.pair()
        let client = JSONRPCClient(transport: FixedTransport(connection: near), configuration: Self.patient)
        let log = LockedValue<[String]>([])
        client.observeNotifications { notification in log.withLock { $0.append(notification.method) } }
        client.observeConnectionStates { state in log.withLock { $0.append("\(state)") } }

        // When it connects, and the peer sends a notification and closes
        try await client.connect()
        try await far.send(#"{"jsonrpc":"2.0","method":"last"}"#)
        await far.close(code: 1000, reason: "bye")

        // Then the drop comes after the notification that preceded it
        try await waitUntil("the drop") { log.withLock { $0 }.count == 4 }
        #expect(log.withLock { $0 } == ["connecting", "connected", "last", "disconnected (closed (1000): bye)"])
    }
}
