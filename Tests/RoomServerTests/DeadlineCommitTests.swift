import JSONRPC
import Logging
import RoomProtocol
@testable import RoomServer
import SignalingSupport
import Testing
import TestSupport

/// No request both fails and takes effect (docs/architecture.md#handler-deadlines): a Room request answered -32001
/// because its handler deadline passed while it waited on user code or I/O has no effect once it returns (no
/// participant, no stream, its endpoint released, nobody told), and one that committed before its deadline is
/// answered with its success. Real sockets; the deadline is a manual clock's, so the races are decided by the test.
@Suite struct DeadlineCommitTests {
    static let timeout = Duration.seconds(2)
    static let timedOut = JSONValue.int(RPCErrorObject.handlerTimedOutCode)

    /// A server on `clock` with a handler deadline of ``timeout``.
    static func server(_ clock: ManualClock, media: TestMediaBackend = TestMediaBackend(),
                       logger: Logger = .disabled(label: "test"),
                       authorizeJoin: @escaping @Sendable (RoomJoinAttempt) async -> Bool = { _ in true })
        async throws -> RoomServer
    {
        try await RoomServer.start(.init(media: media, limits: .init(handlerTimeout: timeout),
                                         authorizeJoin: authorizeJoin, logger: logger, clock: clock))
    }

    @Test func aJoinAnsweredMinus32001LeavesNoParticipant() async throws {
        // Given alice in room1, and an authorizer that holds bob's first join until the test lets it go
        let clock = ManualClock(), gate = Gate(), asked = Counter()
        let server = try await Self.server(clock) { attempt in
            guard attempt.user == "bob" else { return true }
            asked.increment()
            if asked.count == 1 { await gate.wait() }
            return true
        }
        let alice = try await RoomPeer.dialing(server.url)
        try await alice.join("alice")
        let bob = try await RoomPeer.dialing(server.url)

        // When bob's join is at the authorizer when its deadline passes, and allowed once -32001 went out
        let join = try await bob.send("joinRoom", ["user": "bob", "room": "room1"])
        try await waitUntil("bob's join to reach the authorizer") { asked.count == 1 }
        clock.advance(by: Self.timeout)
        #expect(try await bob.response(join)["error"]?["code"] == Self.timedOut)
        gate.open()
        try await waitUntil("bob's join to end") { server.registry.joining == 0 }

        // Then bob is in no room, and alice heard nothing of him
        #expect(server.rooms == ["room1": ["alice"]])
        #expect(try await alice.notificationsBeforePong().isEmpty)

        // And bob's next join as bob succeeds, and alice hears of him once
        try await bob.join("bob")
        #expect(try await alice.notification("participantJoined")["id"] == "bob")
        #expect(try await alice.notificationsBeforePong().isEmpty)
        await server.shutdown()
    }

    @Test func aPublishAnsweredMinus32001LeavesNoStreamAndReleasesItsEndpoint() async throws {
        // Given alice and bob in room1, and a backend that holds the next endpoint until the test lets it go
        let clock = ManualClock(), media = TestMediaBackend()
        let server = try await Self.server(clock, media: media)
        let alice = try await RoomPeer.dialing(server.url), bob = try await RoomPeer.dialing(server.url)
        try await alice.join("alice")
        try await bob.join("bob")
        try await alice.notification("participantJoined")
        media.hold()

        // When bob's publishVideo is at the backend when its deadline passes, and the backend answers after -32001
        let publish = try await bob.send("publishVideo", ["sdpOffer": "offer", "doLoopback": false])
        try await waitUntil("bob's endpoint to be at the backend") { media.waitingCalls == 1 }
        clock.advance(by: Self.timeout)
        #expect(try await bob.response(publish)["error"]?["code"] == Self.timedOut)
        media.open()

        // Then the endpoint the backend made is released, and alice was never told bob publishes
        let endpoint = MediaEndpointID(room: "room1", owner: "bob", endpoint: .publisher)
        try await waitUntil("bob's endpoint to be released") { media.record.withLock { $0 }.released == [endpoint] }
        #expect(try await alice.notificationsBeforePong().isEmpty)
        #expect(server.operationsSnapshot().rooms.first?.participants.first { $0.name == "bob" }?.streams == [])

        // And bob's next publishVideo succeeds: alice hears of it once, and one endpoint is left at the backend
        try await bob.result("publishVideo", ["sdpOffer": "offer", "doLoopback": false])
        #expect(try await alice.notification("participantPublished")["id"] == "bob")
        #expect(try await alice.notificationsBeforePong().isEmpty)
        #expect(media.record.withLock { $0 }.created == [endpoint, endpoint])
        #expect(media.record.withLock { $0 }.released == [endpoint])
        await server.shutdown()
    }

    @Test func aReceiveAnsweredMinus32001LeavesNoSubscriptionAndReleasesItsEndpoint() async throws {
        // Given alice publishing in room1 and bob there, and a backend that holds the next endpoint
        let clock = ManualClock(), media = TestMediaBackend()
        let server = try await Self.server(clock, media: media)
        let alice = try await RoomPeer.dialing(server.url), bob = try await RoomPeer.dialing(server.url)
        try await alice.join("alice")
        try await alice.result("publishVideo", ["sdpOffer": "offer", "doLoopback": false])
        try await bob.join("bob")
        media.hold()

        // When bob's receiveVideoFrom is at the backend when its deadline passes, and the backend answers after -32001
        let receive = try await bob.send("receiveVideoFrom", ["sender": "alice_webcam", "sdpOffer": "offer"])
        try await waitUntil("bob's endpoint to be at the backend") { media.waitingCalls == 1 }
        clock.advance(by: Self.timeout)
        #expect(try await bob.response(receive)["error"]?["code"] == Self.timedOut)
        media.open()

        // Then the endpoint the backend made is released, and bob receives nothing from alice
        let endpoint = MediaEndpointID(room: "room1", owner: "bob", endpoint: .subscriber(to: "alice"))
        try await waitUntil("bob's endpoint to be released") { media.record.withLock { $0 }.released == [endpoint] }
        #expect(server.operationsSnapshot().rooms.first?.participants.first { $0.name == "bob" }?.subscriptions == [])

        // And bob's next receiveVideoFrom succeeds, leaving one endpoint of his at the backend
        try await bob.result("receiveVideoFrom", ["sender": "alice_webcam", "sdpOffer": "offer"])
        #expect(media.record.withLock { $0 }.created.filter { $0 == endpoint }.count == 2)
        #expect(media.record.withLock { $0 }.released == [endpoint])
        await server.shutdown()
    }

    @Test func aJoinThatCommittedBeforeItsDeadlineGetsItsSuccess() async throws {
        // Given a server whose log tells the test when bob's join is done (after its commit), and there lets the
        // deadline pass before the handler returns
        let clock = ManualClock()
        let logger = Logger(label: "test") { _ in
            HookLogHandler { message, metadata in
                if message == "participant joined", metadata["user"] == "bob" { clock.advance(by: Self.timeout) }
            }
        }
        let server = try await Self.server(clock, logger: logger)
        let alice = try await RoomPeer.dialing(server.url), bob = try await RoomPeer.dialing(server.url)
        try await alice.join("alice")

        // When bob joins
        let reply = try await bob.request("joinRoom", ["user": "bob", "room": "room1"])

        // Then he is told he joined (not -32001), as alice is
        #expect(reply["error"] == nil, "\(reply.jsonText)")
        #expect(reply["result"]?["value"] == [["id": "alice"]])
        #expect(try await alice.notification("participantJoined")["id"] == "bob")
        #expect(server.rooms == ["room1": ["alice", "bob"]])
        await server.shutdown()
    }
}

/// A log handler that hands each line's message and metadata to `hook`: a hook into the server's steps.
struct HookLogHandler: LogHandler {
    let hook: @Sendable (String, Logger.Metadata) -> Void
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info
    var metadataProvider: Logger.MetadataProvider?

    init(_ hook: @escaping @Sendable (String, Logger.Metadata) -> Void) { self.hook = hook }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) { hook(event.message.description, event.metadata ?? [:]) }
}

extension RoomRegistry {
    /// Participants between their reservation and their commit (or its undoing).
    var joining: Int {
        state.withLock { s in
            s.rooms.all.values.reduce(0) { total, room in
                total + room.participants.values.filter { $0.phase == .joining }.count
            }
        }
    }
}

extension RoomPeer {
    /// The notifications that arrive before the answer to a `ping` sent now, with those received but not read yet.
    fileprivate func notificationsBeforePong() async throws -> [JSONValue] {
        var notes: [JSONValue] = []
        while !unreadNotifications.isEmpty { notes.append(try await notification()) }
        let ping = try await send("ping", ["interval": 10_000])
        while true {
            let message = try await next()
            if message["id"] == .int(ping) { return notes }
            if message["method"] != nil { notes.append(message) }
        }
    }
}
