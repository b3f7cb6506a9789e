import JSONRPC
import SharedObjectServer
import SharedObjects
import SignalingSupport
import Testing
import TestSupport

/// Every limit and misuse answers a clear JSON-RPC error, and a refused change changes nothing.
@Suite struct SharedObjectLimitTests {
    @Test func oneObjectTooManyIsRefusedWith1103() async throws {
        // Given a server that allows two objects per session
        let server = try await SharedObjectServerFixture.start(.init(limits: .init(maxObjectsPerSession: 2)))
        let peer = SharedObjectPeer(url: server.url)
        let first = try await peer.shared.connect("one")
        _ = try await peer.shared.connect("two")

        // When it connects a third, then again to one it holds
        let refusal = await remoteError { _ = try await peer.shared.connect("three") }

        // Then the third is refused naming the limit, and reconnecting a held one is fine
        #expect(refusal?.code == SharedObjectErrorCode.tooManyObjects.rawValue)
        #expect(refusal?.message.contains("limit 2") == true)
        #expect(try await first.connect().name == "one")
        // and after closing one there is room again
        try await first.close()
        #expect(try await peer.shared.connect("three").isOpen)
        await peer.close()
        await server.shutdown()
    }

    @Test func aChangeThatMakesTheObjectTooLargeIsRefusedWith1104AndChangesNothing() async throws {
        // Given objects of at most 100 bytes, and one holding a small key
        let server = try await SharedObjectServerFixture.start(.init(limits: .init(maxBytesPerObject: 100)))
        let peer = SharedObjectPeer(url: server.url)
        let object = try await peer.shared.connect("small")
        try await object.setProperty("keep", "me")

        // When a set of two keys would take it past the limit
        let refusal = await remoteError {
            try await object.setProperties(["keep": nil, "big": .string(String(repeating: "x", count: 200))])
        }

        // Then it is refused with the size and the limit, and neither key changed
        #expect(refusal?.code == SharedObjectErrorCode.objectTooLarge.rawValue)
        #expect(refusal?.message.contains("limit 100") == true)
        #expect(object.data == ["keep": "me"])
        #expect(server.service.state(of: "small")?.data == ["keep": "me"])
        #expect(server.service.state(of: "small")?.version == 1)
        await peer.close()
        await server.shutdown()
    }

    @Test func tooManyUpdatesPerSecondAreRefusedWithRateLimited() async throws {
        // Given a limit of 5 updates per second on a clock that does not move
        let clock = ManualClock()
        let server = try await SharedObjectServerFixture.start(.init(limits: .init(maxUpdatesPerSecond: 5), clock: clock))
        let peer = SharedObjectPeer(url: server.url)
        let object = try await peer.shared.connect("busy")

        // When it sends six updates (sets and sends) in one second
        for n in 0..<3 { try await object.setProperty("n", .int(n)) }
        try await object.send("ping")
        try await object.send("ping")
        let refusal = await remoteError { try await object.setProperty("n", 99) }

        // Then the sixth is refused with -32000 naming the limit, and the next second allows again
        #expect(refusal?.code == -32000)
        #expect(refusal?.message.contains("rate limited") == true)
        #expect(refusal?.message.contains("5") == true)
        #expect(object.data == ["n": 2])
        clock.advance(by: .seconds(1))
        #expect(try await object.setProperty("n", 3) == 4)
        await peer.close()
        await server.shutdown()
    }

    /// Issue 30 item 4: a `send` goes to every client of the object, so its size is capped well below the 1 MiB
    /// frame (8 KiB by default); a bigger one is refused with 1104 and reaches no one.
    @Test func anOversizeSendIsRefusedWith1104AndReachesNoOne() async throws {
        let server = try await SharedObjectServerFixture.start()
        let sender = SharedObjectPeer(url: server.url), listener = SharedObjectPeer(url: server.url)
        let object = try await sender.shared.connect("board")
        let heard = try await listener.shared.connect("board")
        let events = heard.events

        // When the sender sends 900 KB, then a small marker
        let refusal = await remoteError {
            try await object.send("paint", params: .string(String(repeating: "x", count: 900_000)))
        }
        try await object.send("marker")

        // Then the big one is refused naming its size and the limit, and the listener hears only the marker
        #expect(refusal?.code == SharedObjectErrorCode.objectTooLarge.rawValue)
        #expect(refusal?.message.contains("limit 8192") == true, "\(String(describing: refusal))")
        let seen = try await collect(events, "the marker") { if case .message = $0 { true } else { false } }
        #expect({ if case .message("marker", nil, _)? = seen.last { true } else { false } }(), "\(seen)")
        await sender.close()
        await listener.close()
        await server.shutdown()
    }

    /// Issue 30 item 4: every change and message is written once per client of the object, so a session's fan-out
    /// (notification bytes × clients) has a budget per second, as chat does; past it, -32000 until the second ends,
    /// and nobody else is touched.
    @Test func aSessionPastItsFanOutBudgetIsRateLimited() async throws {
        // Given a budget of 50,000 bytes a second on a clock that does not move, and two clients of one object
        let clock = ManualClock()
        let limits = SharedObjectLimits(maxBroadcastBytesPerSecond: 50_000)
        let server = try await SharedObjectServerFixture.start(.init(limits: limits, clock: clock))
        let sender = SharedObjectPeer(url: server.url), listener = SharedObjectPeer(url: server.url)
        let object = try await sender.shared.connect("wall")
        let heard = try await listener.shared.connect("wall")
        let events = heard.events

        // When the sender sets 10 KB values (about 20 KB of fan-out each) until refused
        var sets = 0
        var refusal: RPCErrorObject?
        while sets < 10 {
            let value = JSONValue.string(String(repeating: "\(sets % 10)", count: 10_000))
            refusal = await remoteError { try await object.setProperty("paint", value) }
            if refusal != nil { break }
            sets += 1
        }
        // Then the third crosses the budget and still goes, the fourth is refused naming the budget, and a send too
        #expect(sets == 3)
        #expect(refusal?.code == -32000, "\(String(describing: refusal))")
        #expect(refusal?.message.contains("50000 bytes per second") == true, "\(String(describing: refusal))")
        #expect(await remoteError { try await object.send("ping") }?.code == -32000)
        // And the listener may still change the object, and the next second the sender may again
        try await heard.setProperty("mine", true)
        clock.advance(by: .seconds(1))
        try await object.send("marker")
        let seen = try await collect(events, "the marker") { if case .message = $0 { true } else { false } }
        #expect({ if case .message("marker", nil, _)? = seen.last { true } else { false } }(), "\(seen)")
        await sender.close()
        await listener.close()
        await server.shutdown()
    }

    @Test func setAndSendWithoutConnectAreRefusedWith1101() async throws {
        let server = try await SharedObjectServerFixture.start()
        let peer = SharedObjectPeer(url: server.url)
        let object = peer.shared.object("never")
        let set = await remoteError { try await object.setProperty("a", 1) }
        let send = await remoteError { try await object.send("hi") }
        #expect(set?.code == SharedObjectErrorCode.notConnected.rawValue)
        #expect(set?.message.contains("sharedObject.connect") == true)
        #expect(send?.code == SharedObjectErrorCode.notConnected.rawValue)
        // and closing it is harmless
        try await object.close()
        await peer.close()
        await server.shutdown()
    }

    @Test func badParamsAreRefusedWithInvalidParamsNamingTheParam() async throws {
        let server = try await SharedObjectServerFixture.start()
        let peer = SharedObjectPeer(url: server.url)
        let cases: [(String, JSONValue, String)] = [
            ("sharedObject.connect", [:], "'name'"),
            ("sharedObject.connect", ["name": ""], "'name'"),
            ("sharedObject.connect", ["name": "a\u{1}b"], "control"),
            ("sharedObject.connect", ["name": "x", "persistent": "yes"], "'persistent'"),
            ("sharedObject.set", ["name": "x", "properties": [:]], "'properties'"),
            ("sharedObject.set", ["name": "x", "properties": [1, 2]], "'properties'"),
            ("sharedObject.send", ["name": "x"], "'method'"),
        ]
        for (method, params, mention) in cases {
            let error = await remoteError { _ = try await peer.rpc.call(method, params: params) }
            #expect(error?.code == -32602, "\(method) \(params)")
            let detail = error?.data?["value"]?.stringValue ?? error?.data?.stringValue ?? ""
            #expect(detail.contains(mention), "\(method) \(params): \(detail)")
        }
        await peer.close()
        await server.shutdown()
    }

    @Test func theAuthorizerDecidesWhoConnects() async throws {
        // Given an authorizer that allows only names starting with "public/"
        let server = try await SharedObjectServerFixture.start(.init(authorize: { $0.name.hasPrefix("public/") }))
        let peer = SharedObjectPeer(url: server.url)
        #expect(try await peer.shared.connect("public/board").isOpen)
        let refusal = await remoteError { _ = try await peer.shared.connect("secret") }
        #expect(refusal?.code == SharedObjectErrorCode.unauthorized.rawValue)
        #expect(!peer.shared.object("secret").isOpen)
        await peer.close()
        await server.shutdown()
    }
}
