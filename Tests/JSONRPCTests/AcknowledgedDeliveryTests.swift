import JSONRPC
import SignalingSupport
import Testing
import TestSupport

/// docs/wire-protocol.md#delivery: a client that counts notifications and says how many it read gets, after a
/// resume, exactly the ones after that count, including those its lost link had reported written.
@Suite struct AcknowledgedDeliveryTests {
    private func request(_ method: String, id: Int, params: String? = nil) -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)""# + (params.map { #","params":\#($0)"# } ?? "") + "}"
    }

    /// A server whose `emit [from, count]` notifies `n` with params `[k]` for k in from..<from+count, then answers.
    private func emittingServer(_ configuration: JSONRPCServer.Configuration = .init()) -> JSONRPCServer {
        let server = JSONRPCServer(configuration: configuration)
        server.register("emit") { params, context in
            let from = params?[0]?.intValue ?? 0, count = params?[1]?.intValue ?? 0
            for k in from..<(from + count) { try await context.session.notify("n", params: [.int(k)]) }
            return "done"
        }
        return server
    }

    /// Reads `count` messages and returns the numbers of the `n` notifications among them, and the others.
    private func read(_ peer: RawPeer, count: Int) async throws -> (numbers: [Int], others: [JSONValue]) {
        var numbers: [Int] = [], others: [JSONValue] = []
        for _ in 0..<count {
            let message = try await peer.receive()
            if message["method"]?.stringValue == "n", let k = message["params"]?[0]?.intValue { numbers.append(k) } else {
                others.append(message)
            }
        }
        return (numbers, others)
    }

    /// Opens a session on `connection` as a counting client does, and returns its id.
    private func openCountingSession(_ peer: RawPeer) async throws -> String {
        let opened = try await peer.exchange(request("connect", id: 1, params: #"{"received":0}"#))
        #expect(opened["result"]?["capabilities"] == ["dedupe", "replay"])
        return try #require(opened["result"]?["sessionId"]?.stringValue)
    }

    @Test func aResumeGetsWhatTheLostLinkReportedWrittenButTheClientNeverRead() async throws {
        // Given a counting client that read notifications 0, 1, 2 on a link that then loses everything it is handed
        // while reporting it written (what a kernel's send buffer does when the link dies)
        let server = emittingServer()
        let (near, far) = LocalMessageConnection.pair()
        let lossy = LossyConnection(far)
        Task { await server.serve(lossy) }
        let first = RawPeer(connection: near)
        let sessionId = try await openCountingSession(first)
        try await first.send(request("emit", id: 2, params: "[0,3]"))
        #expect(try await read(first, count: 4).numbers == [0, 1, 2])
        lossy.losesEverything()
        try await first.send(request("emit", id: 3, params: "[3,4]"))
        try await lossy.waitUntilLost(5)  // four notifications and the reply
        await near.close(code: 1006, reason: "link died")

        // When it resumes on a new connection saying it read 3
        let second = RawPeer.connected(to: server)
        try await second.send(request("connect", id: 4, params: #"{"sessionId":"\#(sessionId)","received":3}"#))

        // Then it gets 3, 4, 5 and 6, in order, and then the reply to its connect, which lists replay
        let (numbers, others) = try await read(second, count: 5)
        #expect(numbers == [3, 4, 5, 6])
        #expect(others.first?["id"] == 4)
        #expect(others.first?["result"]?["capabilities"] == ["dedupe", "replay"])
    }

    @Test func acknowledgedNotificationsAreNotSentAgain() async throws {
        // Given a counting client that read and acknowledged 0..<5
        let server = emittingServer()
        let (near, far) = LocalMessageConnection.pair()
        Task { await server.serve(far) }
        let first = RawPeer(connection: near)
        let sessionId = try await openCountingSession(first)
        try await first.send(request("emit", id: 2, params: "[0,5]"))
        #expect(try await read(first, count: 6).numbers == [0, 1, 2, 3, 4])
        try await first.send(#"{"jsonrpc":"2.0","method":"rpc.ack","params":{"received":5}}"#)
        // (the ack is a notification: a ping's answer proves it was read first)
        _ = try await first.exchange(request("ping", id: 3))
        await near.close(code: 1006, reason: "link died")

        // When it resumes saying it read 5
        let second = RawPeer.connected(to: server)
        let resumed = try await second.exchange(request("connect", id: 4, params: #"{"sessionId":"\#(sessionId)","received":5}"#))

        // Then nothing is replayed: the reply comes first, and the next notification is 5
        #expect(resumed["id"] == 4)
        try await second.send(request("emit", id: 5, params: "[5,1]"))
        #expect(try await read(second, count: 2).numbers == [5])
    }

    @Test func aResumeThatClaimsMoreThanWasSentOrLessThanWasAcknowledgedEndsTheSession() async throws {
        for claim in [9, 1] {
            // Given a counting client that read and acknowledged 0..<3
            let server = emittingServer()
            let (near, far) = LocalMessageConnection.pair()
            Task { await server.serve(far) }
            let first = RawPeer(connection: near)
            let sessionId = try await openCountingSession(first)
            try await first.send(request("emit", id: 2, params: "[0,3]"))
            _ = try await read(first, count: 4)
            _ = try await first.exchange(request("ping", id: 3, params: #"{"received":3}"#))
            await near.close(code: 1006, reason: "link died")

            // When a resume claims it read more than was sent (9), or less than it acknowledged (1)
            let second = RawPeer.connected(to: server)
            let refused = try await second.exchange(request("connect", id: 4, params: #"{"sessionId":"\#(sessionId)","received":\#(claim)}"#))

            // Then it is refused as a lost session, and the session is gone: the client starts again
            #expect(refused["error"]?["code"] == 40007, "claim \(claim)")
            #expect(server.session(id: sessionId) == nil, "claim \(claim)")
        }
    }

    @Test func aClientThatDoesNotCountKeepsTheStockBehaviourAndIsNotToldReplay() async throws {
        // Given a stock client (its connect says no `received`) that read 0..<2
        let server = emittingServer()
        let (near, far) = LocalMessageConnection.pair()
        Task { await server.serve(far) }
        let first = RawPeer(connection: near)
        let opened = try await first.exchange(request("connect", id: 1))
        let sessionId = try #require(opened["result"]?["sessionId"]?.stringValue)
        #expect(opened["result"]?["capabilities"] == ["dedupe"])
        try await first.send(request("emit", id: 2, params: "[0,2]"))
        _ = try await read(first, count: 3)
        await near.close(code: 1006, reason: "link died")

        // When it resumes
        let second = RawPeer.connected(to: server)
        let resumed = try await second.exchange(request("connect", id: 3, params: #"{"sessionId":"\#(sessionId)"}"#))

        // Then written notifications are not sent again, and the server does not claim to replay
        #expect(resumed["id"] == 3)
        #expect(resumed["result"]?["capabilities"] == ["dedupe"])
    }

    @Test func aSessionThatKeepsTooManyUnacknowledgedBytesEndsWith4410() async throws {
        // Given a server that keeps at most 1 KiB unacknowledged, and a counting client that never acknowledges
        let server = emittingServer(.init(maxUnacknowledgedBytes: 1024))
        let (near, far) = LocalMessageConnection.pair()
        Task { await server.serve(far) }
        let peer = RawPeer(connection: near)
        let sessionId = try await openCountingSession(peer)

        // When the server sends it more than that
        try await peer.send(request("emit", id: 2, params: "[0,100]"))

        // Then the session ends and the socket closes with 4410 (its client reconnects, finds it gone, starts again)
        var end: ConnectionEnd?
        while end == nil {
            do { _ = try await peer.receiveText() } catch let closed as ConnectionEnd { end = closed }
        }
        #expect(end?.code == 4410)
        #expect(server.session(id: sessionId) == nil)
    }
}

/// A server-side connection that, once told, loses every message it is handed while reporting it written: what
/// the kernel's send buffer does with a link that died silently.
private final class LossyConnection: MessageConnection {
    private let inner: LocalMessageConnection
    private struct State {
        var losing = false
        var lost = 0
        var waiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?
    }
    private let state = LockedValue(State())

    init(_ inner: LocalMessageConnection) { self.inner = inner }

    func losesEverything() { state.withLock { $0.losing = true } }

    /// Returns once `count` messages were lost.
    func waitUntilLost(_ count: Int) async throws {
        try await withDeadline(.seconds(10), "\(count) lost messages") {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = self.state.withLock { s -> Bool in
                    if s.lost >= count { return true }
                    s.waiter = (count, continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    func send(_ text: String) async throws { try enqueue(text, whenWritten: nil) }

    func enqueue(_ text: String, whenWritten: (@Sendable (ConnectionEnd?) -> Void)?) throws {
        let (lose, waiter) = state.withLock { s -> (Bool, CheckedContinuation<Void, Never>?) in
            guard s.losing else { return (false, nil) }
            s.lost += 1
            guard let waiter = s.waiter, s.lost >= waiter.count else { return (true, nil) }
            s.waiter = nil
            return (true, waiter.continuation)
        }
        if lose {
            whenWritten?(nil)
            waiter?.resume()
            return
        }
        try inner.enqueue(text, whenWritten: whenWritten)
    }

    func receive() async throws -> String { try await inner.receive() }

    func close(code: UInt16, reason: String) async { await inner.close(code: code, reason: reason) }
}
